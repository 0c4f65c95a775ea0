import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** A connection of the worker's own, copying the WAL back into the database every `every` ms without waiting for anyone. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.module);
const db = new SQLite(workerData.file, { fileMustExist: true });
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}, workerData.every);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** WAL pages past which the server's own connection checkpoints after all (the worker stopped or fell behind). */
const FALLBACK_PAGES = 10_000;
/** A WAL this big starts the worker: a database written little (a test's) never needs one. */
const START_BYTES = 4 << 20;

/**
 * SQLite's checkpoints off the event loop. By default the connection that commits copies the
 * WAL back into the database file, and syncs it, every 1,000 pages, inside that commit: on a busy
 * floor that was a sixth of the server's thread (assigns 567–595/s with it, 680–692/s without).
 * A worker thread checkpoints instead, every tenth of a second, passively: it never blocks a
 * commit, and pages written again and again between two rounds are copied once. Past
 * FALLBACK_PAGES the server's connection checkpoints again: should the worker stop, and under
 * steady writes, where a passive round seldom ends between two commits and the WAL can start over
 * only after a checkpoint that caught up (the bench's WAL started over about once a second this
 * way, the commit copying only what the worker had not yet). Answers a stop,
 * which ends the worker before the database closes (the last connection out removes the WAL).
 */
export function checkpointOffThread(sqlite: SQLite.Database, file: string, every = 100): () => Promise<void> {
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`);
  let worker: Worker | null = null;
  const walBytes = () => {
    try {
      return fs.statSync(`${file}-wal`).size;
    } catch {
      return 0;
    }
  };
  const watch = setInterval(() => {
    if (walBytes() < START_BYTES) return;
    clearInterval(watch);
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    worker = new Worker(WORKER, { eval: true, execArgv: [], workerData: { module, file, every } });
    worker.unref();
    worker.once('exit', () => (worker = null));
    // A worker that failed has exited: the fallback checkpoints.
    worker.on('error', () => undefined);
  }, 1000).unref();
  return async () => {
    clearInterval(watch);
    if (!worker) return;
    const w = worker;
    worker = null;
    const exited = new Promise((r) => w.once('exit', r));
    // Held open until it has closed its connection.
    w.ref();
    w.postMessage('stop');
    await exited;
  };
}
