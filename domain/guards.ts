/** An object whose properties may be read (an array or an Error too): parsed JSON, a thrown value. */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
