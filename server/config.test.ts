import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      APP_NAME: 'BDC Portal',
      PORT: 3000,
      PUBLIC_URL: 'http://localhost:3000',
      WEATHER_URL: 'https://api.open-meteo.com',
      APP_TIMEZONE: 'America/New_York',
      MANAGER_EMAILS: [],
      ALLOWED_EMAIL_DOMAINS: [],
      secureCookies: false,
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.SMTP_URL).toBeUndefined();
  });

  it('reads lists and an https address', () => {
    const c = loadConfig({
      MANAGER_EMAILS: ' Boss@Dealer.com, two@dealer.com ',
      ALLOWED_EMAIL_DOMAINS: '@dealer.com',
      PUBLIC_URL: 'https://portal.dealer.com/',
    });
    expect(c.MANAGER_EMAILS).toEqual(['boss@dealer.com', 'two@dealer.com']);
    expect(c.ALLOWED_EMAIL_DOMAINS).toEqual(['dealer.com']);
    expect(loadConfig({ PUSH_HOSTS: 'Push.Dealer.com, http://10.0.0.5:8080/' }).PUSH_HOSTS).toEqual(['push.dealer.com', 'http://10.0.0.5:8080']);
    expect(c.PUBLIC_URL).toBe('https://portal.dealer.com');
    expect(c.secureCookies).toBe(true);
  });

  it.each([
    ['PORT', 'abc'],
    ['DATABASE_URL', 'mysql://x'],
    ['SMTP_URL', 'http://mail'],
    ['MANAGER_EMAILS', 'not-an-email'],
    ['APP_TIMEZONE', 'Mars/Olympus'],
    ['WEATHER_LATITUDE', '123'],
    ['SESSION_SECRET', 'short'],
    ['TRUST_PROXY', 'maybe'],
    ['MANAGER_EMAILS', 'evil@dealer.com@attacker.example'],
    ['ALLOWED_EMAIL_DOMAINS', 'dealer.com.'],
    ['PUSH_HOSTS', 'http://10.0.0.5:8080/push'],
    ['INBOUND_ADDRESSES', '\u212Aleads@dealer.com=NSH'],
  ])('stops on a bad %s and names it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});
