import type { z } from 'zod';
import { ApiError } from '../../domain/errors';

export { ApiError };

export const badRequest = (msg: string, code?: string) => new ApiError(400, msg, code);
export const notFound = (msg: string) => new ApiError(404, msg);
export const forbidden = (msg = 'You need manager permissions to do that.') => new ApiError(403, msg);
export const unauthorized = (msg = 'Not signed in') => new ApiError(401, msg);

/** Parses input with a domain schema; the first issue's message becomes a 400, naming its field when it is about one. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input ?? {});
  if (!r.success) {
    const issue = r.error.issues[0];
    let msg = issue?.message ?? 'Invalid input';
    if (issue?.code === 'unrecognized_keys') msg = `Unknown field: ${issue.keys.join(', ')}`;
    else if (issue?.code === 'invalid_type' && msg.startsWith('Invalid input')) {
      msg = issue.path.length ? `${issue.path.join('.')} is invalid` : 'Expected a JSON object';
    }
    throw new ApiError(400, msg, undefined, issue?.path.length ? issue.path.join('.') : undefined);
  }
  return r.data;
}
