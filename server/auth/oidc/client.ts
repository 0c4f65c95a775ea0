import * as client from 'openid-client';
import type { Config } from '../../config';
import { ssoOf } from './settings';

/** Seconds to wait for the provider (discovery, token and refresh calls). */
const TIMEOUT_S = 10;
/** How often a single sign-on session is checked with the provider (its refresh token). */
export const RECHECK_MS = 15 * 60 * 1000;
const known = new WeakMap<Config, Promise<client.Configuration>>();

/**
 * The provider as its discovery document describes it, fetched once per configuration; a failed
 * discovery (the provider down) is asked again next time. Its signing keys are fetched and kept by
 * openid-client, which fetches them again when a token names a key it does not know (a rotation).
 */
export function providerOf(config: Config): Promise<client.Configuration> {
  let found = known.get(config);
  if (!found) {
    const sso = ssoOf(config);
    if (!sso) return Promise.reject(new Error('single sign-on is not set up'));
    const issuer = new URL(sso.issuer);
    found = client.discovery(issuer, sso.id, undefined, client.ClientSecretBasic(sso.secret), {
      timeout: TIMEOUT_S,
      // ID tokens are checked against the provider's published keys (openid-client skips that for
      // tokens from the token endpoint unless asked). A provider on plain http (a local one, the
      // tests') is used as configured.
      execute: [client.enableNonRepudiationChecks, ...(issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [])],
    });
    found.catch(() => known.delete(config));
    known.set(config, found);
  }
  return found;
}

/** What to ask for: a refresh token too where the provider offers one (offline_access), so sessions can be re-checked. */
export function scopeFor(provider: client.Configuration): string {
  const offered = provider.serverMetadata().scopes_supported ?? [];
  return offered.includes('offline_access') ? 'openid email profile offline_access' : 'openid email profile';
}

/** Whether an error is the provider's own refusal (it answered, and said no), not a failure to reach it. */
export const providerRefused = (err: unknown) => err instanceof client.ResponseBodyError && err.status < 500;
