import fs from 'node:fs';

/** Debian's Chromium, the whole browser. */
export const CHROMIUM = '/usr/bin/chromium';
const SHELL = '/usr/bin/chromium-headless-shell';

/**
 * The browser the tests drive: CHROMIUM_PATH when set, else Chromium's headless shell where it is
 * installed (the same engine without the desktop browser around it: about an eighth less CPU per
 * screen here), else the whole browser. The shell refuses notifications, so the push tests ask
 * for the whole browser (`launch(CHROMIUM)`).
 */
export const launch = (executablePath = process.env.CHROMIUM_PATH ?? (fs.existsSync(SHELL) ? SHELL : CHROMIUM)) => ({
  executablePath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
