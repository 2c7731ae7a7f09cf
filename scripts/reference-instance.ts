/**
 * One instance of this repository's reference server for the conformance suite: a test Redis keeping
 * its data in DATA/redis, then the server on PORT with REDIS_URL pointing at it. Started again with the
 * same --data, it finds the same collection, so a restart through the suite restarts both processes
 * for real. On SIGTERM (or SIGINT) it stops the server, then Redis, and exits.
 *
 * Usage (from the repository root): node --import tsx scripts/reference-instance.ts --port P --data D
 * The suite's start command: `make conformance` passes this with {port} and {data}.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startTestRedis } from '../testing/redis.ts';

const { values } = parseArgs({ options: { port: { type: 'string' }, data: { type: 'string' } } });
if (!values.port || !values.data) {
  console.error('usage: reference-instance.ts --port PORT --data DIR');
  process.exit(2);
}
const dataDir = path.resolve(values.data);

let stopping = false;
let server: ChildProcess | undefined;
const redis = await startTestRedis({ dir: path.join(dataDir, 'redis') });

async function stop(code: number): Promise<never> {
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await exited;
  }
  await redis.stop();
  process.exit(code);
}

for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void stop(0);
  });

const built = path.resolve('dist/server/src/main.js');
const args = fs.existsSync(built) ? [built] : ['--import', 'tsx', 'server/src/main.ts'];
server = spawn(process.execPath, args, {
  stdio: 'inherit',
  env: {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: values.port,
    REDIS_URL: redis.url,
    LOG_LEVEL: process.env.CONFORMANCE_LOG_LEVEL || process.env.LOG_LEVEL || 'warn',
  },
});
// A server that ends on its own (crash, port taken) takes its Redis with it and reports its status.
server.on('exit', (code, signal) => {
  if (stopping) return;
  stopping = true;
  console.error(`reference server exited (${code ?? signal}); stopping its Redis`);
  void stop(code ?? 1);
});
