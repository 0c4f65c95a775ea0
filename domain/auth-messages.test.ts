import { describe, it, expect } from 'vitest';
import { finishLoginMessage, MSG } from './auth-messages';

describe('finishLoginMessage', () => {
  it('maps a used or expired link', () => {
    expect(finishLoginMessage('Firebase: Error (auth/invalid-action-code).')).toBe('This link was already used or expired.');
  });

  it('maps a missing e-mail', () => {
    expect(finishLoginMessage(MSG.missingEmail)).toBe('Missing email for sign-in. Try requesting a new link.');
  });

  it('passes other messages through', () => {
    expect(finishLoginMessage(MSG.invalidLink)).toBe('Invalid or expired sign-in link.');
  });

  it.each([null, undefined, ''])('falls back to Unknown error for %s', (m) => {
    expect(finishLoginMessage(m)).toBe('Unknown error');
  });
});

describe('MSG', () => {
  it('holds the specification texts', () => {
    expect(MSG).toEqual({
      emailRequired: 'Email required',
      invalidLink: 'Invalid or expired sign-in link.',
      missingEmail: 'Missing email for link sign-in.',
      notSignedIn: 'Not signed in',
      nameRequired: 'Name is required',
      sendFailed: 'Something went wrong sending the link. Please try again.',
      accessOff: 'Your access was turned off. Ask a manager if this is a mistake.',
      signedOut: 'This device was signed out. Sign in again to go on.',
    });
  });
});
