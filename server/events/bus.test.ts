import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalEvent } from './bus';
import { DIALECTS, testApp, type TestApp } from '../test/harness';

describe.each(DIALECTS)('the event bus on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(dialect);
  });
  afterAll(() => t.close());

  it("hands what keeps data (heard) this server's own news once, at once; subscribers get it as it travels", async () => {
    const { bus } = t.app.ctx;
    const heard: PortalEvent[] = [];
    const subscribed: PortalEvent[] = [];
    const stopHeard = bus.heard((e) => heard.push(e));
    const stopSubscribed = bus.subscribe((e) => subscribed.push(e));
    // A marker published after it comes back after it (NOTIFY keeps their order): by then its echo is in.
    const marker = new Promise<void>((resolve) => {
      const stop = bus.subscribe((e) => {
        if (e.topic !== 'rotation' || e.storeId !== -1) return;
        stop();
        resolve();
      });
    });
    bus.publish({ topic: 'profile', userId: 'someone' });
    expect(heard.map((e) => e.userId)).toEqual(['someone']);
    bus.publish({ topic: 'rotation', storeId: -1 });
    await marker;
    stopHeard();
    stopSubscribed();
    expect(heard.filter((e) => e.userId === 'someone')).toHaveLength(1);
    expect(subscribed.filter((e) => e.userId === 'someone')).toHaveLength(1);
    // What travels says nothing of which server sent it.
    expect(Object.keys(subscribed[0]).sort()).toEqual(['at', 'topic', 'userId']);
  });
});
