/** What a thrown value says, for a person or the log: an Error's message, else its text. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A thrown value as an Error, for callbacks that take one: itself, or an Error with its text. */
export const toError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));
