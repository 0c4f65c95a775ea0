import fs from 'node:fs';
import path from 'node:path';
import { slotEnv } from './slot';
import type { TakenText } from '../../server/test/sms-provider';

/** Texts the SMS provider's stand-in took for this number, oldest first (global-setup writes each to the worker's folder). */
export function textsTo(number: string): TakenText[] {
  const dir = slotEnv('SMS_DIR');
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as TakenText)
    .filter((m) => m.to === number);
}
