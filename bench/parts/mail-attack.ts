// The hostile mail client of the mail part (./mail.ts), on a worker thread of the bench's own.
import { parentPort, workerData } from 'node:worker_threads';
import { attack } from './mail';

const { port, stop } = workerData as { port: number; stop: Int32Array };
parentPort?.postMessage(
  await attack(
    port,
    () => Atomics.load(stop, 0) === 1,
    () => parentPort?.postMessage('ready'),
  ),
);
