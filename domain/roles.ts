export type Role = 'manager' | 'staff';

export const DEFAULT_NAME = 'User';

export function normalizeRole(r: unknown): Role {
  return typeof r === 'string' && r.trim().toLowerCase() === 'manager' ? 'manager' : 'staff';
}

/** Candidates in priority order: profile role, session profile role, token claim. */
export function effectiveRole(...candidates: (string | null | undefined)[]): Role {
  for (const c of candidates) {
    const v = typeof c === 'string' ? c.trim().toLowerCase() : '';
    if (v) return normalizeRole(v);
  }
  return 'staff';
}

export function normalizeName(n: unknown): string {
  const v = typeof n === 'string' ? n.trim() : '';
  return v || DEFAULT_NAME;
}

export function normalizeEmail(e: string): string {
  return e.trim().toLowerCase();
}
