/** A notice on its way to one target, as the sender hands it to its channel. */
export interface Outgoing {
  id: number;
  userId: string;
  leadId: number | null;
  kind: string;
  /** The push subscription's id, the mobile number or the mail address. */
  target: string;
  body: NoticeBody;
}

/** What a notice says: the push's title and text and where "Open" goes; a text sends `text` alone. */
export interface NoticeBody {
  title: string;
  text: string;
  url: string;
  /** The push's Accept: a single-use token for this lead and person. */
  accept?: string;
}

/**
 * How a channel answered: sent (with the provider's id when it gives one), or not: `gone` when
 * the target no longer exists (a push subscription answered 404/410), `permanent` when trying
 * again cannot help; anything else is retried with backoff.
 */
export type Sent = { ok: true; providerId?: string } | { ok: false; error: string; gone?: true; permanent?: true };

export interface Channel {
  send(n: Outgoing): Promise<Sent>;
}
