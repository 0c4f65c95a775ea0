import * as forms from '../../domain/schemas';
import { passkeyRenameSchema } from '../../domain/passkeys';
import { deskUpSchema } from '../../domain/desk';

/**
 * The schemas the web's forms check with, fetched when a form first needs one (useSchemaForm):
 * building them (zod) was the largest part of starting a screen's code on a phone, and nothing
 * on a screen's first frame needs them. A chunk of its own (vite.config.ts).
 */
export const schemas = { ...forms, passkeyRenameSchema, deskUpSchema };
