import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@mantine/core';
import { call } from '../api/client';
import { finishLoginMessage } from '../../domain/auth-messages';

/** Which ways to sign in there are here: the e-mail link (unless turned off) and single sign-on. */
export function useSignInMethods() {
  return useQuery({ queryKey: ['auth-methods'], queryFn: () => call('GET /auth/methods'), staleTime: Infinity, retry: 1 }).data;
}

/**
 * Single sign-on's refusal, whatever its reason (an unknown address, one the provider has not
 * verified, an expired or replayed sign-in): the same words as a refused link, so the page tells
 * nobody which addresses may sign in. The server logs the real reason.
 */
export function useSsoRefused(): string | null {
  const [refused] = useState(() => new URLSearchParams(window.location.search).get('signin') === 'refused');
  return refused ? finishLoginMessage('invalid-action-code') : null;
}

/** "Sign in with your work account": off to the provider, by a plain page load (the server starts the flow). */
export function SsoButton({ label }: { label: string }) {
  return (
    <Button component="a" href="/auth/oidc/start" color="blue.8">
      {label}
    </Button>
  );
}
