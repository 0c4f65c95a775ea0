// The mail part's hostile client (./mail.ts) in a process of its own: `ready` when its mail is
// built, then it sends until told "stop" on stdin, then prints how it was answered (JSON).
import { attack } from './mail';

let stopped = false;
process.stdin.on('data', () => (stopped = true));
const codes = await attack(
  Number(process.argv[2]),
  () => stopped,
  () => process.stdout.write('ready\n'),
);
process.stdout.write(`${JSON.stringify(codes)}\n`);
process.exit(0);
