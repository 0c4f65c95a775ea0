/** What a policy refused with (status and the user's message), or null when it let the call through. */
export function refusal(fn: () => void): { status: number; message: string } | null {
  try {
    fn();
  } catch (err) {
    const e = err as { status: number; message: string };
    return { status: e.status, message: e.message };
  }
  return null;
}
