// The intake parser's worker thread (run by piscina from ./parser.ts; built to build/intake-worker.js).
import { threadId } from 'node:worker_threads';
import { messageOf } from '../../domain/errors';
import { ApiError } from '../http/errors';
import { readDocument, type ReadDocument } from './read';
import { readMail, type ReadMail } from '../mailin/read';

/** An ADF document sent by HTTP, or a whole e-mail (server/mailin) to find the documents in. */
export type Task = { kind: 'document'; bytes: Uint8Array; contentType: string } | { kind: 'mail'; bytes: Uint8Array };
/** Asked of a worker that has just started, before a document's budget runs: answered once its code is loaded. */
export type Ready = { kind: 'ready' };

/**
 * What the worker answers: what was read, or the refusal as the route sends it. An error
 * crosses threads as a plain Error, so the refusal travels as data. `threadId` says which
 * thread read it (never the main thread's 0).
 */
export type Answer =
  | { ok: true; document: ReadDocument; threadId: number }
  | { ok: true; mail: ReadMail; threadId: number }
  | { ok: true; ready: true; threadId: number }
  | { ok: false; status: number; message: string; code?: string; threadId: number };

export default async function read(task: Task | Ready): Promise<Answer> {
  if (task.kind === 'ready') return { ok: true, ready: true, threadId };
  try {
    if (task.kind === 'mail') return { ok: true, mail: await readMail(task.bytes), threadId };
    return { ok: true, document: readDocument(task.bytes, task.contentType), threadId };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, status: err.status, message: err.message, code: err.code, threadId };
    // Not one of ours (the parser or the platform gave up on this document): still the sender's document.
    return { ok: false, status: 400, message: `The ${task.kind === 'mail' ? 'mail' : 'XML'} could not be read: ${messageOf(err)}`, threadId };
  }
}
