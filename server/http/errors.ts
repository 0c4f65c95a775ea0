import type { z } from 'zod';

/** An error whose message is safe and meant for the user; the status says whose fault it was. */
export class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
    public code?: string,
    /** The input field the message is about (its path, dot-joined), so a form shows it under that field. */
    public field?: string,
  ) {
    super(message);
  }
}

export const badRequest = (msg: string, code?: string) => new HttpError(400, msg, code);
export const notFound = (msg: string) => new HttpError(404, msg);
export const forbidden = (msg = 'You need manager permissions to do that.') => new HttpError(403, msg);
export const unauthorized = (msg = 'Not signed in') => new HttpError(401, msg);

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
    throw new HttpError(400, msg, undefined, issue?.path.length ? issue.path.join('.') : undefined);
  }
  return r.data;
}
