/**
 * The live-event topics: what changed, so every open screen refetches the data behind it.
 * "hello" opens each stream; "session-revoked" ends the stream of someone whose access was
 * turned off; "tv-revoked": a TV link of the store was revoked (its TV's stream ends).
 */
export const TOPICS = ['hello', 'rotation', 'users', 'leads', 'sales', 'profile', 'rules', 'session-revoked', 'tv-revoked'] as const;
export type Topic = (typeof TOPICS)[number];
/** Topics that mean "refetch this data". */
export type DataTopic = Exclude<Topic, 'hello' | 'session-revoked' | 'tv-revoked'>;
