import { describe, expect, it } from 'vitest';
import { batched } from './batch';

/** A write the test finishes by hand. */
function writes() {
  const calls: { items: number[]; finish: (err?: Error) => void }[] = [];
  const write = (items: number[]) => new Promise<void>((resolve, reject) => calls.push({ items, finish: (err) => (err ? reject(err) : resolve()) }));
  return { calls, write };
}
/** A few turns of the event loop: enough for a batch to start its write. */
const turns = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

describe('batched writes', () => {
  it('writes on the next turn when idle; what comes while a write is under way goes together in the next one', async () => {
    const { calls, write } = writes();
    const put = batched(write);
    const first = [put([1]), put([2])];
    await turns();
    expect(calls.map((c) => c.items)).toEqual([[1, 2]]);
    const second = [put([3]), put([4, 5])];
    await turns();
    // Nothing more is written until the first write is over.
    expect(calls).toHaveLength(1);
    calls[0].finish();
    await Promise.all(first);
    await turns();
    expect(calls.map((c) => c.items)).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    let settled = false;
    const all = put.settled().then(() => (settled = true));
    await turns();
    expect(settled).toBe(false);
    calls[1].finish();
    await Promise.all(second);
    await all;
  });

  it('a failed write fails only its own callers, and the next write still goes', async () => {
    const { calls, write } = writes();
    const put = batched(write);
    const failing = put([1]);
    await turns();
    const later = put([2]);
    calls[0].finish(new Error('database gone'));
    await expect(failing).rejects.toThrow('database gone');
    await turns();
    expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
    calls[1].finish();
    await expect(later).resolves.toBeUndefined();
  });
});
