export const MSG = {
  emailRequired: 'Email required',
  invalidLink: 'Invalid or expired sign-in link.',
  missingEmail: 'Missing email for link sign-in.',
  notSignedIn: 'Not signed in',
  nameRequired: 'Name is required',
  sendFailed: 'Something went wrong sending the link. Please try again.',
  accessOff: 'Your access was turned off. Ask a manager if this is a mistake.',
  signedOut: 'This device was signed out. Sign in again to go on.',
} as const;

export function finishLoginMessage(message: string | null | undefined): string {
  if (message?.includes('invalid-action-code')) return 'This link was already used or expired.';
  if (message?.includes('Missing email')) return 'Missing email for sign-in. Try requesting a new link.';
  return message || 'Unknown error';
}
