import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { Piscina } from 'piscina';
import { messageOf } from '../../domain/errors';
import { ApiError, badRequest } from '../http/errors';
import type { ReadDocument } from './read';
import type { ReadMail } from '../mailin/read';
import type read from './worker';
import type { Answer, Ready, Task } from './worker';

/**
 * The worker's entry: beside this file when the server runs from its sources (tsx, Vitest);
 * build/intake-worker.js beside the bundle (build/main.js) once built by scripts/build.mjs.
 */
const WORKER_FILE = import.meta.url.endsWith('.ts') ? new URL('./worker.ts', import.meta.url) : new URL('./intake-worker.js', import.meta.url);

/** How long one document may keep a worker busy; past it the worker is ended (a new one takes its place) and the document refused. */
const BUDGET_MS = 5000;
/** How long a new worker may take to start before the document waiting for it is tried anyway. */
const START_MS = 30_000;
/** Documents that may wait for a worker, per worker, before a sender is told to come back (503). */
const QUEUE_PER_THREAD = 16;
/** What a 503 for a full queue tells the sender to wait, in seconds. */
const BUSY_RETRY_S = 1;
/** A worker's heap: far above what reading a 1 MB document takes; a runaway ends its own thread, not the server. */
const WORKER_HEAP_MB = 256;
/**
 * The workers' scheduling priority, below the event loop's (Linux nice, per thread): on a small
 * machine a worker reading documents gives way to the thread that answers everyone else.
 */
const WORKER_NICE = 10;

/** Every document still waiting for a worker: the sender should try again shortly (Retry-After). */
export class IntakeBusy extends ApiError {
  readonly retryAfter = BUSY_RETRY_S;
  constructor() {
    super(503, 'The portal is busy reading other lead documents right now. Please try again in a moment.', 'intake_busy');
  }
}

export interface ParserOptions {
  /** Worker threads (INTAKE_WORKERS). */
  threads?: number;
  /** Documents that may wait, per thread. */
  queuePerThread?: number;
  /** How long one document may take in a worker (ms). */
  budgetMs?: number;
  /** Another worker entry (tests: one that crashes). */
  file?: URL;
  log?: FastifyBaseLogger;
}

/**
 * Documents read so far in this process, by the thread that read them (0 would be the main
 * thread: it never reads one), and what went wrong: how the tests see where parsing happens.
 */
export const readsByThread = new Map<number, number>();

/**
 * Reads intake documents (decoding, pre-scan, ampersand repair, validation, parsing: ./read.ts)
 * on worker threads, so a costly document holds up other documents, never the event loop
 * that answers everyone else. The threads start with the first document; at most `threads`
 * documents are read at once and `threads * queuePerThread` wait, FIFO; past that, 503 with
 * Retry-After. A worker that crashes, runs out of memory or overruns its budget is replaced and
 * its document answered 400; the pool goes on.
 */
export function createIntakeParser(opts: ParserOptions = {}) {
  const threads = opts.threads ?? 1;
  const maxWaiting = threads * (opts.queuePerThread ?? QUEUE_PER_THREAD);
  const budgetMs = opts.budgetMs ?? BUDGET_MS;
  const file = opts.file ?? WORKER_FILE;
  // Found at start, not at the first document: a build without its worker does not start.
  if (!fs.existsSync(fileURLToPath(file))) throw new Error(`The intake parser's worker is missing (${fileURLToPath(file)}): build the server again.`);

  let pool: Piscina<Task | Ready, Awaited<ReturnType<typeof read>>> | null = null;
  let closed = false;
  const started = () =>
    (pool ??= new Piscina({
      filename: file.href,
      minThreads: threads,
      maxThreads: threads,
      // From the sources, the worker reads TypeScript as the server does.
      execArgv: file.pathname.endsWith('.ts') ? ['--import', 'tsx'] : [],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      niceIncrement: WORKER_NICE,
    }));

  // A worker's start (its code loaded, under tsx compiled) is not a document's time: each new
  // worker answers a "ready" first, with no budget, after the pool starts and after a worker was
  // replaced. Before this, the first document after a restart could be refused as too slow.
  let warm: Promise<void> | null = null;
  const warmed = () =>
    (warm ??= Promise.all(Array.from({ length: threads }, () => started().run({ kind: 'ready' }, { signal: AbortSignal.timeout(START_MS) }))).then(
      () => undefined,
      () => {
        warm = null;
      },
    ));

  // Our own queue in front of the pool: a document's budget starts when a worker takes it, not while it waits.
  let reading = 0;
  const waiting: (() => void)[] = [];
  async function turn() {
    if (reading < threads) {
      reading++;
      return;
    }
    if (waiting.length >= maxWaiting) throw new IntakeBusy();
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  const done = () => {
    const next = waiting.shift();
    if (next) next();
    else reading--;
  };

  /** Runs one task; its bytes are handed over (do not use them afterwards). */
  async function run(task: Task): Promise<Answer & { ok: true }> {
    await turn();
    if (closed) {
      done();
      throw new IntakeBusy();
    }
    const what = task.kind === 'mail' ? 'mail' : 'document';
    let answer: Answer;
    try {
      await warmed();
      // A body that owns its whole memory (every body over 4 kB does) moves to the worker instead of being copied.
      // One that shares Node's small-buffer pool is copied: moving it would take the pool away from everyone.
      const { bytes } = task;
      const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
      answer = await started().run(task, { signal: AbortSignal.timeout(budgetMs), transferList: owned ? [bytes.buffer] : [] });
    } catch (err) {
      // The worker is replaced: its successor starts before the next document's budget runs.
      warm = null;
      if (err instanceof Error && err.name === 'AbortError') {
        opts.log?.warn(`an intake ${what} took more than ${budgetMs} ms to read; its worker was ended and the ${what} refused`);
        throw badRequest(`The ${what} took too long to read (over ${budgetMs / 1000} s). Send a smaller or simpler ${what}.`);
      }
      opts.log?.error({ err }, `the intake parser worker stopped while reading a ${what}; a new one takes its place`);
      throw badRequest(`The ${what === 'mail' ? 'mail' : 'XML'} could not be read: the reader stopped on this ${what} (${messageOf(err)}).`);
    } finally {
      done();
    }
    readsByThread.set(answer.threadId, (readsByThread.get(answer.threadId) ?? 0) + 1);
    if (!answer.ok) throw new ApiError(answer.status, answer.message, answer.code);
    return answer;
  }

  /** Reads one ADF document sent by HTTP. */
  async function readDocument(bytes: Uint8Array, contentType: string): Promise<ReadDocument> {
    const answer = await run({ kind: 'document', bytes, contentType });
    if (!('document' in answer)) throw new Error('the worker answered a document with a mail');
    return answer.document;
  }

  /** Reads one e-mail: its sender, subject, text and every ADF document in it (server/mailin/read.ts). */
  async function readMail(bytes: Uint8Array): Promise<ReadMail> {
    const answer = await run({ kind: 'mail', bytes });
    if (!('mail' in answer)) throw new Error('the worker answered a mail with a document');
    return answer.mail;
  }

  return {
    read: readDocument,
    readMail,
    /** Ends the threads (the app is closing). */
    close: async () => {
      closed = true;
      const p = pool;
      pool = null;
      await p?.destroy();
    },
  };
}
export type IntakeParser = ReturnType<typeof createIntakeParser>;
