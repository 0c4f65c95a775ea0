import * as forms from '../../domain/schemas';
import { passkeyRenameSchema } from '../../domain/passkeys';
import { deskUpSchema } from '../../domain/desk';
import { rulesSchema } from '../../domain/rules';
import { routingRuleSchema, teamNameSchema } from '../../domain/routing';
import { limitsSchema } from '../../domain/teams';
import { payPlanChangeSchema } from '../../domain/payplan-schema';

/**
 * The schemas the web's forms check with, fetched when a form first needs one (useSchemaForm,
 * checksFor): building them (zod) was the largest part of starting a screen's code on a phone,
 * and nothing on a screen's first frame needs them. A chunk of its own (vite.config.ts).
 */
export const schemas = { ...forms, passkeyRenameSchema, deskUpSchema, rulesSchema, routingRuleSchema, teamNameSchema, limitsSchema, payPlanChangeSchema };
