/**
 * The live-event topics: what changed, so every open screen refetches the data behind it.
 * "hello" opens each stream; "session-revoked" ends the stream of someone whose access was
 * turned off.
 */
export type Topic = 'hello' | 'rotation' | 'users' | 'leads' | 'sales' | 'profile' | 'rules' | 'session-revoked';
/** Topics that mean "refetch this data". */
export type DataTopic = Exclude<Topic, 'hello' | 'session-revoked'>;
