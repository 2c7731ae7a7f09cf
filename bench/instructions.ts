/**
 * `make bench-instructions`: user-space instructions per request, counted by valgrind's callgrind, for
 * the server and the baseline on the same requests. Unlike req/s on a shared machine, the count repeats
 * (within about 2 %) from run to run, so it can tell a change of a few per cent. It leaves out the
 * kernel (system calls), and under valgrind requests arrive slowly, so per-turn batching (the log lines)
 * does not show: it complements `make bench`, it does not replace it. Needs valgrind.
 *
 * Each target runs under callgrind with instrumentation off; after a warm-up (JIT) of twice the count,
 * instrumentation is switched on for exactly INSTR_REQUESTS requests (8 connections), then dumped.
 *
 * Env: INSTR_REQUESTS (3000), INSTR_SCENARIOS (get,put,delete), BENCH_SERVER_SCRIPT (another build).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { freePort } from '../server/test/support/redis.ts';
import { startRedis } from './procs.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGETS = {
  server: path.resolve(
    process.env.BENCH_SERVER_SCRIPT || path.join(ROOT, 'dist', 'server', 'src', 'main.js'),
  ),
  baseline: path.join(ROOT, 'bench', 'baseline.ts'),
};
const REQUESTS = Number(process.env.INSTR_REQUESTS || 3000);
const SCENARIOS = (process.env.INSTR_SCENARIOS || 'get,put,delete').split(',');
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
// Users 1..1000 stay; 1001..SEEDED are there for DELETE to remove (warm-up plus measured run,
// with a margin); PUT creates ids above SEEDED.
const SEEDED = 1000 + 4 * REQUESTS;

type Requests = NonNullable<autocannon.Options['requests']>;

function requestsFor(scenario: string): Requests {
  let next = scenario === 'delete' ? 1001 : SEEDED + 1;
  switch (scenario) {
    case 'get':
      return [{ method: 'GET', path: '/UserService/users/7' }];
    case 'put':
      return [
        {
          method: 'PUT',
          path: '/UserService/users',
          headers: FORM,
          setupRequest: (req) => ({ ...req, body: `id=${next++}&name=New%20Person&profession=Engineer` }),
        },
      ];
    case 'delete':
      return [
        { method: 'DELETE', setupRequest: (req) => ({ ...req, path: `/UserService/users/${next++}` }) },
      ];
    default:
      throw new Error(`unknown scenario ${scenario} (get, put, delete)`);
  }
}

async function countInstructions(script: string, scenario: string): Promise<number> {
  const redis = await startRedis({ fsync: 'off' });
  const client = new Redis(redis.url);
  await client.set('{usersvc}:initialised', '1');
  const users: string[] = [];
  for (let i = 1; i <= SEEDED; i++)
    users.push(String(i), JSON.stringify({ name: `user-${i}`, profession: 'p' }));
  await client.hset('{usersvc}:users', ...users);
  client.disconnect();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'usersvc-instructions-'));
  const port = await freePort();
  // vgdb names its pipes after USER and HOST: the same environment for valgrind and callgrind_control.
  const env = {
    ...process.env,
    REDIS_URL: redis.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  };
  const vgdb = `--vgdb-prefix=${path.join(dir, 'vgdb')}`;
  const proc = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--vgdb=yes',
      vgdb,
      '--instr-atstart=no',
      '--smc-check=all-non-file', // V8 writes code at run time
      `--callgrind-out-file=${path.join(dir, 'callgrind.out')}`,
      process.execPath,
      script,
    ],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  proc.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const control = (...args: string[]) =>
    execFileSync('callgrind_control', [vgdb, ...args, String(proc.pid)], { env, stdio: 'ignore' });
  try {
    const url = `http://127.0.0.1:${port}`;
    for (const deadline = Date.now() + 120_000; ; ) {
      if (proc.exitCode !== null) throw new Error(`${script} exited under valgrind:\n${stderr}`);
      if (Date.now() > deadline) throw new Error(`${script} did not answer under valgrind:\n${stderr}`);
      try {
        await fetch(`${url}/healthz`);
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    const requests = requestsFor(scenario);
    const run = (amount: number) => autocannon({ url, connections: 8, amount, requests, timeout: 60 });
    await run(2 * REQUESTS); // warm-up: let the JIT settle
    control('--instr=on');
    const measured = await run(REQUESTS);
    control('--dump');
    if (measured.errors || measured.non2xx)
      throw new Error(`${scenario}: ${measured.non2xx} non-2xx answers`);
    // The dump goes to callgrind.out.1 (callgrind.out itself is written at exit).
    let total = 0;
    for (const name of fs.readdirSync(dir).filter((file) => file.startsWith('callgrind.out'))) {
      const text = fs.readFileSync(path.join(dir, name), 'utf8');
      total = Math.max(total, Number(/^(?:summary|totals):\s*(\d+)/m.exec(text)?.[1] ?? 0));
    }
    if (total === 0) throw new Error(`callgrind wrote no totals in ${fs.readdirSync(dir).join(', ')}`);
    return Math.round(total / measured.requests.total);
  } finally {
    proc.kill('SIGKILL');
    await redis.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`instructions per request (callgrind, ${REQUESTS} requests after a warm-up, 8 connections)`);
console.log('| scenario | server | baseline | server / baseline |\n|---|---:|---:|---:|');
for (const scenario of SCENARIOS) {
  const server = await countInstructions(TARGETS.server, scenario);
  const baseline = await countInstructions(TARGETS.baseline, scenario);
  console.log(
    `| ${scenario} | ${server.toLocaleString('en')} | ${baseline.toLocaleString('en')} | ${(server / baseline).toFixed(2)} |`,
  );
}
process.exit(0);
