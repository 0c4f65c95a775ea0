// The intake parser's worker thread (run by piscina from ./parser.ts; built to build/intake-worker.js).
import { threadId } from 'node:worker_threads';
import { messageOf } from '../../domain/errors';
import { ApiError } from '../http/errors';
import { readDocument } from './read';
import type { Prospect } from './adf';

export interface Task {
  bytes: Uint8Array;
  contentType: string;
}

/**
 * What the worker answers: the document read, or the refusal as the route sends it. An error
 * crosses threads as a plain Error, so the refusal travels as data. `threadId` says which
 * thread read it (never the main thread's 0).
 */
export type Answer =
  { ok: true; xml: string; prospects: Prospect[]; threadId: number } | { ok: false; status: number; message: string; code?: string; threadId: number };

export default function read({ bytes, contentType }: Task): Answer {
  try {
    return { ok: true, ...readDocument(bytes, contentType), threadId };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, status: err.status, message: err.message, code: err.code, threadId };
    // Not one of ours (the parser or the platform gave up on this document): still the sender's document.
    return { ok: false, status: 400, message: `The XML could not be read: ${messageOf(err)}`, threadId };
  }
}
