import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { FORM_TYPE, formBody } from '../../../testing/form.ts';
import { connectRefused, rawRequest, request } from '../../../testing/http.ts';
import { startLocalRedis, type TestRedis } from '../../../testing/redis.ts';
import { USER_KEYS } from '../../src/users/keys.ts';
import { SUCCESS } from '../support/http.ts';
import {
  type ChildServer,
  disposeChildServer,
  isAlive,
  isRedis,
  sleep,
  startChildServer,
  tempDir,
} from './support/child-server.ts';
import { printFigures } from './support/figures.ts';

/** Children of `pid`, each with its command line (Linux /proc). */
function childrenOf(pid: number): Array<{ pid: number; cmdline: string }> {
  const children: Array<{ pid: number; cmdline: string }> = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid) continue;
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      children.push({ pid: Number(entry), cmdline });
    } catch {
      // the process ended meanwhile
    }
  }
  return children;
}

/** The server processes the cluster primary forked (node running the server's main module). */
const workerPids = (primary: number) =>
  childrenOf(primary)
    .filter((child) => /main\.(js|ts)/.test(child.cmdline))
    .map((child) => child.pid)
    .sort();

const redisChildren = (pid: number) =>
  childrenOf(pid).filter((child) => child.cmdline.includes('redis-server'));

async function waitUntil(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

interface LogLine {
  pid: number;
  level: number;
  msg: string;
  reqId?: string;
  restartInMs?: number;
}

const logLines = (server: ChildServer): LogLine[] =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

/**
 * The pid of the process that answered each request id, from the access log lines. Lines are written in
 * batches (`DEFAULTS.logFlushIntervalMs`), so a request's line may follow its answer: this waits for all.
 */
async function answeredBy(server: ChildServer, reqIds: string[]): Promise<Map<string, number>> {
  const wanted = new Set(reqIds);
  const byId = new Map<string, number>();
  await waitUntil(
    'an access log line for every request',
    () => {
      for (const line of logLines(server)) {
        if (line.msg === 'request' && line.reqId && wanted.has(line.reqId)) byId.set(line.reqId, line.pid);
      }
      return byId.size === wanted.size;
    },
    5_000,
  );
  return byId;
}

/** Starts the server with PROCESSES=2 and waits until both workers listen (the primary logs it). */
async function startCluster(env: Record<string, string> = {}): Promise<ChildServer> {
  const server = await startChildServer({ env: { PROCESSES: '2', LOG_LEVEL: 'info', ...env } });
  await waitUntil('both workers listening', () =>
    logLines(server).some((line) => line.msg === 'user service listening (cluster)'),
  );
  return server;
}

/** One PUT per new connection (the primary hands each new connection to the next worker). */
async function putUsers(server: ChildServer, prefix: string, from: number, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const reqId = `${prefix}-${i}`;
    const reply = await request(`${server.url}/UserService/users`, {
      method: 'PUT',
      headers: { 'Content-Type': FORM_TYPE, 'Request-Id': reqId },
      body: formBody({ id: from + i, name: `${prefix}-${i}`, profession: 'workers' }),
    });
    expect(reply.body).to.equal(SUCCESS);
    ids.push(reqId);
  }
  return ids;
}

/** Creates `count` workers of an app and deletes them (202): one removal job each. */
async function createAndDeleteWorkers(server: ChildServer, count: number): Promise<string[]> {
  const base = `${server.url}/apps/cluster-test/workers`;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await request(base, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ command: `job ${i}` }),
    });
    expect(created.status).to.equal(201);
    const { id } = JSON.parse(created.body) as { id: string };
    expect((await request(`${base}/${id}`, { method: 'DELETE' })).status).to.equal(202);
    ids.push(id);
  }
  return ids;
}

/**
 * Issue 16, item 5: PROCESSES=N (then called WORKERS) runs N server processes (node:cluster) on one port, each with its own
 * Redis connections; the primary owns the embedded Redis; SIGTERM drains every worker.
 */
describe('PROCESSES=2: several server processes on one port', function () {
  this.timeout(90_000);
  let server: ChildServer | undefined;
  let again: ChildServer | undefined;
  let external: TestRedis | undefined;
  let client: Redis | undefined;
  afterEach(async () => {
    client?.disconnect();
    client = undefined;
    await disposeChildServer(again, false);
    again = undefined;
    await disposeChildServer(server);
    server = undefined;
    await external?.stop();
    external = undefined;
  });

  it('two worker processes answer on one port, each with its own Redis connection; one embedded Redis, owned by the primary', async () => {
    server = await startCluster({ WORKER_STOP_GRACE_MS: '100' });
    const cluster = server;
    const primary = cluster.pid;
    const workers = workerPids(primary);
    const ids = await putUsers(cluster, 'spread', 7000, 30);
    const answering = new Set((await answeredBy(cluster, ids)).values());

    const redisProcesses = redisChildren(primary);
    const redisOfWorkers = workers.flatMap((pid) => redisChildren(pid));
    const [redisPid, owner] = cluster.pidFile() ?? [];

    // Worker removal jobs: both processes read the stream, each as its own consumer, and every job
    // takes effect once ("worker removed" is logged by the consumer whose script deleted the worker).
    const appWorkers = await createAndDeleteWorkers(cluster, 20);
    const removals = () => logLines(cluster).filter((line) => line.msg === 'worker removed');
    await waitUntil('every removal carried out', () => removals().length >= appWorkers.length);
    await sleep(500); // a second removal of the same worker would be logged by now
    const removedBy = removals() as Array<LogLine & { consumer: string; workerId: string }>;
    const consumerOf = new Map(removedBy.map((line) => [line.pid, line.consumer]));

    printFigures('workers: two processes', {
      'worker pids': workers.join(', '),
      'answered by (30 requests, one connection each)': [...answering].join(', '),
      'redis-server children of the primary': redisProcesses.length,
      'redis-server children of the workers': redisOfWorkers.length,
      'removals (20 jobs)': removedBy.length,
      'removal consumers by pid': [...consumerOf].map(([pid, name]) => `${pid}: ${name}`).join(', '),
    });
    expect(workers).to.have.length(2);
    expect(workers).not.to.include(primary);
    expect([...answering].sort(), 'both workers answered, the primary none').to.deep.equal(workers);
    expect(redisProcesses.map((child) => child.pid)).to.deep.equal([redisPid]);
    expect(owner, 'the pid file names the primary as the owner').to.equal(primary);
    expect(redisOfWorkers).to.have.length(0);
    expect(removedBy.map((line) => line.workerId).sort()).to.deep.equal([...appWorkers].sort());
    expect([...consumerOf.keys()].sort(), 'both workers carried out removals').to.deep.equal(workers);
    for (const [pid, consumer] of consumerOf) expect(consumer).to.include(`-${pid}-`);
    expect(new Set(consumerOf.values()).size).to.equal(2);
  });

  it('with REDIS_URL the primary starts no Redis and every worker connects to the one given', async () => {
    external = await startLocalRedis();
    server = await startCluster({ REDIS_URL: external.url });
    const workers = workerPids(server.pid);
    const ids = await putUsers(server, 'external', 7100, 10);
    client = new Redis(external.url);
    const stored = await client.hmget(USER_KEYS.users, ...ids.map((_, i) => String(7100 + i)));
    expect(workers).to.have.length(2);
    expect(redisChildren(server.pid)).to.have.length(0);
    expect(new Set((await answeredBy(server, ids)).values()).size).to.equal(2);
    expect(stored.every((value) => value !== null)).to.equal(true);
  });

  it('SIGTERM: every worker answers its in-flight requests and exits, then the embedded Redis stops; exit 0', async () => {
    server = await startCluster();
    const cluster = server;
    const workers = workerPids(cluster.pid);
    const [redisPid] = cluster.pidFile() ?? [];
    // Eight requests in flight on their own connections: headers and half of the body before SIGTERM.
    const reqIds = Array.from({ length: 8 }, (_, i) => `drain-${i}`);
    const inFlight = reqIds.map((reqId, i) => {
      const body = formBody({ id: 7200 + i, name: reqId, profession: 'drain' });
      const half = Math.floor(body.length / 2);
      const head = `PUT /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\nRequest-Id: ${reqId}\r\nContent-Type: ${FORM_TYPE}\r\nContent-Length: ${body.length}\r\n\r\n`;
      return rawRequest(cluster.port, '', {
        pieces: [head + body.slice(0, half), body.slice(half)],
        gapMs: 1500,
        timeoutMs: 15_000,
      });
    });
    await sleep(300);
    cluster.kill('SIGTERM');
    await sleep(400);
    const refusedDuringDrain = await connectRefused(cluster.port);
    const answers = await Promise.all(inFlight);
    const { code, signal } = await cluster.exited;
    const drainedBy = new Set((await answeredBy(cluster, reqIds)).values());
    const errorsLogged = logLines(cluster).filter((line) => line.level >= 50).length;
    const redisGone = !(redisPid !== undefined && isAlive(redisPid) && isRedis(redisPid));
    const workersGone = workers.every((pid) => !isAlive(pid));
    const pidFileGone = !fs.existsSync(path.join(cluster.dataDir, 'redis', 'embedded-redis.pid'));

    // The same data folder, started again as one process, holds the writes that were in flight.
    again = await startChildServer({ port: cluster.port, dataDir: cluster.dataDir });
    const list = (await request(`${again.url}/UserService/users`)).body;
    const kept = reqIds.filter((reqId) => list.includes(`<name>${reqId}</name>`)).length;

    printFigures('workers: SIGTERM', {
      'in-flight requests answered': `${answers.filter((a) => a.status === 200 && a.body === SUCCESS).length}/${answers.length}`,
      'workers that held them': drainedBy.size,
      'new connection refused while draining': refusedDuringDrain,
      'exit code': code ?? signal,
      'workers exited': workersGone,
      'embedded redis-server stopped': redisGone,
      'in-flight writes kept': `${kept}/${reqIds.length}`,
      'error log lines': errorsLogged,
    });
    for (const answer of answers) expect(answer.body).to.equal(SUCCESS);
    expect(drainedBy.size, 'the in-flight requests were spread over both workers').to.equal(2);
    expect(refusedDuringDrain, 'no new connection accepted after SIGTERM').to.equal(true);
    expect(code).to.equal(0);
    expect(workersGone).to.equal(true);
    expect(redisGone, 'the embedded redis-server stopped with the primary').to.equal(true);
    expect(pidFileGone).to.equal(true);
    expect(kept).to.equal(reqIds.length);
    expect(errorsLogged, cluster.output().slice(-2000)).to.equal(0);
  });

  it('a worker killed with SIGKILL is replaced and the new one serves; the other served meanwhile', async () => {
    server = await startCluster();
    const cluster = server;
    const before = workerPids(cluster.pid);
    const [victim, survivor] = before as [number, number];
    process.kill(victim, 'SIGKILL');
    const exitLogged = () =>
      logLines(cluster).find((line) => line.msg === 'a worker exited unexpectedly; starting another');
    await waitUntil('the primary noticing', () => exitLogged() !== undefined);
    // Until the replacement listens, the primary hands every new connection to the live worker.
    const during = await putUsers(cluster, 'during', 7300, 10);
    await waitUntil('a replacement worker', () => {
      const now = workerPids(cluster.pid);
      return now.length === 2 && !now.includes(victim);
    });
    const after = workerPids(cluster.pid);
    const replacement = after.find((pid) => pid !== survivor) as number;
    await waitUntil('the replacement listening', () =>
      logLines(cluster).some((line) => line.pid === replacement && line.msg === 'user service listening'),
    );
    const ids = await putUsers(cluster, 'replaced', 7400, 20);
    const answering = new Set((await answeredBy(cluster, ids)).values());
    const reported = exitLogged();
    printFigures('workers: a worker killed', {
      'killed / replacement': `${victim} / ${replacement}`,
      'requests answered while one worker was down': during.length,
      'answered by after the replacement': [...answering].join(', '),
      'logged (level)': reported ? `${reported.msg} (${reported.level})` : 'nothing',
    });
    expect(after).to.have.length(2);
    expect(after).to.include(survivor);
    expect(answering.has(replacement), 'the replacement answers requests').to.equal(true);
    expect(reported?.level).to.equal(50);
    cluster.kill('SIGTERM');
    expect((await cluster.exited).code).to.equal(0);
  });

  it('a crash loop backs off: each quick death waits twice as long before the next worker starts', async () => {
    server = await startCluster();
    const cluster = server;
    const delays = () =>
      logLines(cluster)
        .filter((line) => line.msg === 'a worker exited unexpectedly; starting another')
        .map((line) => line.restartInMs);
    // One worker stays; the other slot dies three times in a row, each replacement as soon as it exists.
    const [first, survivor] = workerPids(cluster.pid) as [number, number];
    let victim = first;
    for (let death = 1; death <= 3; death++) {
      process.kill(victim, 'SIGKILL');
      const killed = victim;
      await waitUntil('the replacement started', () => {
        const now = workerPids(cluster.pid);
        return delays().length === death && now.length === 2 && !now.includes(killed);
      });
      victim = workerPids(cluster.pid).find((pid) => pid !== survivor) as number;
    }
    await waitUntil('the last replacement listening', () =>
      logLines(cluster).some((line) => line.pid === victim && line.msg === 'user service listening'),
    );
    printFigures('workers: crash loop', { 'restart delays ms': delays().join(', ') });
    expect(delays()).to.deep.equal([100, 200, 400]);
    expect(workerPids(cluster.pid)).to.include(survivor);
    expect((await request(`${cluster.url}/readyz`)).status).to.equal(200);
  });

  it('a worker that cannot start (port taken) fails the start: exit 1, embedded Redis stopped, no retry loop', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const dataDir = tempDir('usersvc-workers-');
    try {
      const failed = await startChildServer({ port, dataDir, env: { PROCESSES: '2' } }).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(failed?.message).to.match(/server exited \(1\) while starting/);
      expect(failed?.message).to.include('EADDRINUSE');
      // The pid file goes only once the embedded redis-server has exited.
      expect(fs.existsSync(path.join(dataDir, 'redis', 'embedded-redis.pid'))).to.equal(false);
    } finally {
      taken.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
