export function greetingFor(hour: number, custom?: string | null): string {
  const own = custom?.trim();
  if (own) return own;
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}
