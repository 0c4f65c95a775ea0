/** What a thrown value says, for a person or the log: an Error's message, else its text. */
/** The code of a refusal that is a question (a sale's large front gross): the same request again with `sure` saves it. */
export const CHECK_AMOUNT = 'check-amount';

export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A thrown value as an Error, for callbacks that take one: itself, or an Error with its text. */
export const toError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/**
 * An answer that was not 2xx, on both ends: the server throws it with the status (whose fault) and
 * words meant for the person; the web's calls throw it with what the server said. `code` is a
 * stable name a client acts on (invalid-action-code), `field` the input it is about (its path,
 * dot-joined), so a form shows it under that field.
 */
export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    public code?: string,
    public field?: string,
  ) {
    super(message);
  }
}
