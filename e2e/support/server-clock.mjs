// The browser tests' portal runs on a clock they can move, so a test sees what happens after a
// while without waiting for it: global-setup loads this into the portal (node --import). Every Date.now() and new Date() in the process reads real
// time plus an offset; a test moves it by writing the new offset to E2E_CLOCK_FILE and sending
// SIGUSR2 (support/clock.ts), and the portal answers in E2E_CLOCK_FILE.ack once it has taken it.
// Timers still run on real time: the portal's next sweep (every 15 s) sees the moved clock.
import fs from 'node:fs';

const file = process.env.E2E_CLOCK_FILE;
if (file) {
  const RealDate = Date;
  const realNow = () => RealDate.now();
  let offset = 0;
  class MovedDate extends RealDate {
    /** @param {any[]} args */
    constructor(...args) {
      if (args.length === 0) super(realNow() + offset);
      // @ts-expect-error: the same arguments as Date's own
      else super(...args);
    }
    static now() {
      return realNow() + offset;
    }
  }
  globalThis.Date = /** @type {DateConstructor} */ (MovedDate);
  process.on('SIGUSR2', () => {
    offset = Number(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(`${file}.ack`, String(offset));
  });
}
