// The compose stack checked as a user runs it, with one compose command (v1 `docker-compose` or v2
// `docker compose`): build the server image, bring the stack up, wait for both healthchecks, run the
// conformance suite (every rule but the explorer's) against http://127.0.0.1:8080, check that a user survives `restart redis`,
// `restart server` and `down` + `up` (the volume is kept), then `down -v`, and check that nothing of the
// project is left. Usage: node scripts/compose-check.mjs NAME COMMAND... (e.g. compose-v1 docker-compose).
// Writes reports/counts/containers-NAME.json (one count per check); the suite writes
// reports/counts/containers-NAME-conformance.json. The environment reaches compose (SERVER_BUILD_CONTEXT).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const [name, ...composeCommand] = process.argv.slice(2);
if (!name || composeCommand.length === 0) {
  console.error('usage: node scripts/compose-check.mjs NAME COMMAND...');
  process.exit(2);
}
const BASE_URL = 'http://127.0.0.1:8080';
const project = `usersvc-check-${name}-${process.pid}`.toLowerCase().replace(/[^a-z0-9_-]/g, '-');
const counts = { passed: 0, failed: 0, skipped: 0 };
const HEALTHY_WITHIN_MS = 120_000;

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 600_000, ...options });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`;
  return { ok: result.status === 0, output: output.trim() };
}

function compose(...args) {
  const [command, ...rest] = composeCommand;
  return run(command, [...rest, '-p', project, ...args]);
}

function mustCompose(...args) {
  const result = compose(...args);
  if (!result.ok)
    throw new Error(`${composeCommand.join(' ')} ${args.join(' ')} failed:\n${result.output.slice(-2000)}`);
  return result.output;
}

async function check(title, body) {
  try {
    await body();
    counts.passed++;
    console.log(`  ✔ ${title}`);
    return true;
  } catch (err) {
    counts.failed++;
    console.log(`  ✘ ${title}\n    ${String(err.message ?? err).replaceAll('\n', '\n    ')}`);
    return false;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function health(service) {
  const id = mustCompose('ps', '-q', service).split('\n').pop();
  if (!id) return 'no container';
  const state = run('docker', [
    'inspect',
    '--format',
    '{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}',
    id,
  ]);
  return state.ok ? state.output : 'gone';
}

async function untilHealthy() {
  const deadline = Date.now() + HEALTHY_WITHIN_MS;
  for (;;) {
    const states = { redis: health('redis'), server: health('server') };
    if (states.redis === 'healthy' && states.server === 'healthy') return;
    if (Date.now() > deadline)
      throw new Error(
        `not healthy within ${HEALTHY_WITHIN_MS / 1000} s: ${JSON.stringify(states)}\n${compose('logs', '--tail', '20').output}`,
      );
    await sleep(500);
  }
}

async function userName(id) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`${BASE_URL}/UserService/users/${id}`, { signal: AbortSignal.timeout(3000) });
      const body = await res.text();
      if (res.status === 200) return /<name>([^<]*)<\/name>/.exec(body)?.[1];
      if (res.status === 404) return undefined;
    } catch {}
    if (Date.now() > deadline)
      throw new Error(`GET /UserService/users/${id} did not answer 200 or 404 within 30 s`);
    await sleep(250);
  }
}

function portFree(port) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '0.0.0.0', () => probe.close(() => resolve(true)));
  });
}

function leftovers() {
  const filter = `label=com.docker.compose.project=${project}`;
  const found = [];
  for (const [kind, args] of [
    ['container', ['ps', '-aq', '--filter', filter]],
    ['network', ['network', 'ls', '-q', '--filter', filter]],
    ['volume', ['volume', 'ls', '-q', '--filter', filter]],
  ]) {
    const result = run('docker', args);
    for (const id of result.output.split('\n').filter(Boolean)) found.push(`${kind} ${id}`);
  }
  return found;
}

console.log(
  `== compose stack with \`${composeCommand.join(' ')}\` (${run(composeCommand[0], [...composeCommand.slice(1), 'version', '--short']).output}), project ${project}`,
);
const userId = 900000 + (process.pid % 99999);
const userNameWritten = `survivor-${name}`;
let up = false;
let suiteFailed = false;
try {
  if (!(await portFree(8080)))
    throw new Error('port 8080 is taken on this machine: the stack publishes the server there');
  if (!(await check('builds the server image', () => mustCompose('build', '--quiet', 'server'))))
    throw new Error('no image');
  up = await check('comes up, both healthchecks healthy', async () => {
    mustCompose('up', '-d');
    await untilHealthy();
  });
  if (!up) throw new Error('the stack did not come up');

  const suite = run('make', ['--no-print-directory', 'conformance'], {
    stdio: 'inherit',
    env: {
      ...process.env,
      CONFORMANCE_BASE_URL: BASE_URL,
      // The Makefile's smoke (CONFORMANCE_SMOKE_GREP): what differs in the stack is its wiring (the image,
      // Redis as a service, the ports, the volume); its restarts are checked below.
      CONFORMANCE_ARGS: process.env.CONFORMANCE_SMOKE_GREP
        ? `--grep ${process.env.CONFORMANCE_SMOKE_GREP}`
        : '',
      CONFORMANCE_COUNTS_FILE: path.resolve(`reports/counts/containers-${name}-conformance.json`),
      CONFORMANCE_REPORT_DIR: `reports/containers/${name}-conformance`,
    },
  });
  suiteFailed = !suite.ok;
  console.log(
    `  ${suite.ok ? '✔' : '✘'} the conformance suite against ${BASE_URL} (every MUST passes; counted on its own)`,
  );

  await check(`a user written (PUT id ${userId}) is read back`, async () => {
    const res = await fetch(`${BASE_URL}/UserService/users`, {
      method: 'PUT',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id: String(userId), name: userNameWritten, profession: 'durability' }),
    });
    await res.text();
    const read = await userName(userId);
    if (read !== userNameWritten)
      throw new Error(`read back ${JSON.stringify(read)} after PUT answered ${res.status}`);
  });
  for (const [title, steps] of [
    ['restart redis', [['restart', 'redis']]],
    ['restart server', [['restart', 'server']]],
    ['down + up (the volume is kept)', [['down'], ['up', '-d']]],
  ]) {
    await check(`the user survives \`${title}\``, async () => {
      for (const step of steps) mustCompose(...step);
      await untilHealthy();
      const read = await userName(userId);
      if (read !== userNameWritten) throw new Error(`after ${title}: read ${JSON.stringify(read)}`);
    });
  }
  await check('`down -v` leaves no container, network or volume of the project', async () => {
    mustCompose('down', '-v', '--rmi', 'local');
    up = false;
    const left = leftovers();
    if (left.length) throw new Error(`left: ${left.join(', ')}`);
  });
} catch (err) {
  counts.failed++;
  console.log(`  ✘ ${err.message}`);
} finally {
  if (up || leftovers().length) compose('down', '-v', '--rmi', 'local', '--remove-orphans');
  fs.mkdirSync('reports/counts', { recursive: true });
  fs.writeFileSync(`reports/counts/containers-${name}.json`, JSON.stringify(counts));
  console.log(`  ${name}: ${counts.passed} passed, ${counts.failed} failed`);
}
process.exit(counts.failed > 0 || suiteFailed ? 1 : 0);
