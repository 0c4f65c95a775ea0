/** What a thrown value says, for a person or the log: an Error's message, else its text. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
