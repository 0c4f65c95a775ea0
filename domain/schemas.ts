import { z } from 'zod';
import { normalizeRole, normalizeName } from './roles';
import { parseMoneyToCents } from './commission';
import { isValidDayKey } from './time';

const MAX = 200;
const tooLong = (max: number) => `Too long (max ${max} characters)`;
// Control characters never belong in a name or a reason; line breaks and tabs do in notes.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const CONTROL_ANY = /[\u0000-\u001F\u007F]/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** A trimmed single-line text; `required` is the message when it is missing or blank. */
const text = (required: string, max = MAX) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, tooLong(max))
    .refine((s) => !CONTROL_ANY.test(s), 'Contains invalid characters');

const email = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .toLowerCase()
    .min(1, required)
    .max(254, tooLong(254))
    .refine((s) => EMAIL.test(s), 'Enter a valid e-mail address');

export const sendLinkSchema = z.strictObject({ email: email('Email required') });

export const completeLinkSchema = z.strictObject({
  email: email('Missing email for link sign-in.'),
  token: z.string({ error: 'Invalid or expired sign-in link.' }).min(1, 'Invalid or expired sign-in link.').max(200, 'Invalid or expired sign-in link.'),
});

export const profileSchema = z.strictObject({
  name: text('Name is required'),
  greeting: z
    .string()
    .trim()
    .max(80, tooLong(80))
    .refine((s) => !CONTROL_ANY.test(s), 'Contains invalid characters')
    .nullish()
    .transform((s) => s || null),
});

export const assignSchema = z.strictObject({ customer: text('Customer is required') });

export const skipSchema = z.strictObject({
  targetUid: z.string({ error: 'Select a user to skip' }).trim().min(1, 'Select a user to skip').max(100),
  reason: text('Reason required'),
  minutes: z.number().int().min(1).max(480).default(30),
});

export const toggleSchema = z
  .strictObject({
    uid: z.string({ error: 'uid required' }).trim().min(1, 'uid required').max(100),
    active: z.boolean().optional(),
    onDuty: z.boolean().optional(),
  })
  .refine((v) => v.active !== undefined || v.onDuty !== undefined, 'Say which status to change: active or onDuty');

export const reorderSchema = z.strictObject({
  uid: z.string({ error: 'uid required' }).trim().min(1, 'uid required').max(100),
  direction: z.enum(['up', 'down'], { error: 'direction must be up or down' }),
});

export const saveUserSchema = z.strictObject({
  id: z.string().max(100).optional(),
  email: email('Email is required.'),
  name: z
    .string()
    .max(MAX, tooLong(MAX))
    .refine((s) => !CONTROL_ANY.test(s), 'Contains invalid characters')
    .nullish()
    .transform(normalizeName),
  role: z.unknown().optional().transform(normalizeRole),
});

export const notesSchema = z.strictObject({
  notes: z
    .string()
    .max(5000, tooLong(5000))
    .refine((s) => !CONTROL.test(s), 'Contains invalid characters'),
});

export const saleSchema = z.object({
  date: z.string({ error: 'Enter a real date (YYYY-MM-DD)' }).refine(isValidDayKey, 'Enter a real date (YYYY-MM-DD)'),
  vehicleType: z.enum(['new', 'used'], { error: 'Vehicle type must be new or used' }).default('new'),
  frontGross: z
    .union([z.string(), z.number()], { error: 'Front gross is required' })
    .refine((v) => String(v).trim() !== '', 'Front gross is required')
    .transform((v, ctx) => {
      const cents = parseMoneyToCents(v);
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: 'Front gross must be a number like 1500 or 1500.50' });
        return z.NEVER;
      }
      return cents;
    }),
  split: z.enum(['full', 'half'], { error: 'Split must be full or half' }).default('full'),
});

export function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input';
}
