import { z } from 'zod';

/** Response window: 0 turns accepting off; otherwise whole minutes, at most two hours. */
export const MAX_RESPONSE_WINDOW = 120;
export const RESPONSE_WINDOW_MSG = `Response window must be a whole number from 1 to ${MAX_RESPONSE_WINDOW} minutes, or 0 for off`;

/**
 * The dealership's rules, one record kept by managers under Manager → Dealership rules. Every
 * field has a default, so a rule added later reads its default from a record saved before it.
 */
export const rulesSchema = z.strictObject(
  {
    responseWindowMinutes: z
      .number({ error: RESPONSE_WINDOW_MSG })
      .int({ error: RESPONSE_WINDOW_MSG })
      .min(0, { error: RESPONSE_WINDOW_MSG })
      .max(MAX_RESPONSE_WINDOW, { error: RESPONSE_WINDOW_MSG }),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown field: ${iss.keys.join(', ')}` : 'Invalid request body') },
);
export type Rules = z.infer<typeof rulesSchema>;

export const DEFAULT_RULES: Rules = { responseWindowMinutes: 10 };

/** A stored record read with today's schema: what is missing or no longer valid takes its default. */
export function readRules(stored: unknown): Rules {
  const out: Record<string, unknown> = { ...DEFAULT_RULES };
  if (stored && typeof stored === 'object') {
    for (const [k, v] of Object.entries(stored)) {
      if (!(k in DEFAULT_RULES)) continue;
      const field = rulesSchema.shape[k as keyof Rules];
      if (field.safeParse(v).success) out[k] = v;
    }
  }
  return out as Rules;
}

export const RULE_LABELS: Record<keyof Rules, string> = { responseWindowMinutes: 'Response window (minutes)' };

/** What a save changed, field by field, for the audit log. */
export function ruleChanges(before: Rules, after: Rules): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const k of Object.keys(after) as (keyof Rules)[]) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) out[k] = { from: before[k], to: after[k] };
  }
  return out;
}
