// Starts the compiled portal under plain Node, building it first only when the build is missing
// or no longer matches the sources.
//
//   node scripts/start.mjs               the server (npm start)
//   node scripts/start.mjs cli [ARGS]    the command line (npm run cli, seed:demo, backup)
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, ensureBuilt } from './build.mjs';

const [first, ...rest] = process.argv.slice(2);
const entry = first === 'cli' ? 'cli' : 'main';
const args = first === 'cli' ? rest : process.argv.slice(2);

try {
  // The command line's own output stays clean: build messages go to stderr.
  await ensureBuilt(ROOT, process.env, undefined, (line) => console.error(line));
} catch (err) {
  console.error(`Could not build the portal: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

const file = path.join(ROOT, 'build', `${entry}.js`);
// The compiled entry reads its arguments as if it had been started directly.
process.argv = [process.argv[0] ?? process.execPath, file, ...args];
await import(pathToFileURL(file).href);
