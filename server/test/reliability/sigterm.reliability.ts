import fs from 'node:fs';
import type net from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { FORM_TYPE, formBody } from '../../../testing/form.ts';
import { connectRefused, openRaw, rawRequest, request } from '../../../testing/http.ts';
import { SUCCESS } from '../support/http.ts';
import {
  type ChildServer,
  disposeChildServer,
  isAlive,
  isRedis,
  serverCommand,
  sleep,
  startChildServer,
} from './support/child-server.ts';
import { ms, printFigures } from './support/figures.ts';

function readAof(dir: string): string {
  let text = '';
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.includes('.aof')) text += fs.readFileSync(full, 'latin1');
    }
  };
  walk(dir);
  return text;
}

/**
 * Issue 5, fault 4: SIGTERM stops accepting, lets in-flight requests finish, closes Redis, stops the
 * embedded Redis after its last write is on disk, and exits 0 within 10 s.
 */
describe('SIGTERM: graceful shutdown', function () {
  this.timeout(60_000);
  let child: ChildServer | undefined;
  let again: ChildServer | undefined;
  after(async () => {
    await disposeChildServer(again, false);
    await disposeChildServer(child);
  });

  it('finishes in-flight requests, refuses new ones, flushes Redis and exits 0 within 10 s', async () => {
    child = await startChildServer();
    const server = child;
    const [redisPid] = server.pidFile() ?? [];
    expect(redisPid).to.be.a('number');
    for (let i = 0; i < 20; i++) {
      const reply = await request(`${server.url}/UserService/users`, {
        method: 'PUT',
        headers: { 'Content-Type': FORM_TYPE },
        body: formBody({ id: 6000 + i, name: `before-${i}`, profession: 'sigterm' }),
      });
      expect(reply.body).to.equal(SUCCESS);
    }

    // Five requests in flight: headers and half of the body sent before SIGTERM, the rest after it.
    const inFlight = Array.from({ length: 5 }, (_, i) => {
      const body = formBody({ id: 6100 + i, name: `inflight-${i}`, profession: 'sigterm' });
      const half = Math.floor(body.length / 2);
      const head = `PUT /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${FORM_TYPE}\r\nContent-Length: ${body.length}\r\n\r\n`;
      return rawRequest(server.port, '', {
        pieces: [head + body.slice(0, half), body.slice(half)],
        gapMs: 1500,
        timeoutMs: 15_000,
      });
    });
    await sleep(300);
    const signalledAt = performance.now();
    server.kill('SIGTERM');
    await sleep(400);
    const refusedDuringDrain = await connectRefused(server.port);
    const answers = await Promise.all(inFlight);
    const { code, signal } = await server.exited;
    const exitMs = performance.now() - signalledAt;

    const redisGone = !(redisPid !== undefined && isAlive(redisPid) && isRedis(redisPid));
    const pidFileGone = !fs.existsSync(path.join(server.dataDir, 'redis', 'embedded-redis.pid'));
    const aof = readAof(path.join(server.dataDir, 'redis'));
    const flushed = answers.every((_, i) => aof.includes(`inflight-${i}`));
    const log = server.output();
    const errorsLogged = (log.match(/"level":(50|60)/g) ?? []).length;

    // The same data folder, started again, holds every write, including the ones in flight.
    again = await startChildServer({ port: server.port, dataDir: server.dataDir });
    const list = (await request(`${again.url}/UserService/users`)).body;
    const kept = Array.from({ length: 20 }, (_, i) => list.includes(`before-${i}`)).filter(Boolean).length;
    const keptInFlight = answers.filter((_, i) => list.includes(`inflight-${i}`)).length;

    printFigures('fault 4: SIGTERM', {
      command: serverCommand().label,
      'in-flight requests answered': `${answers.filter((a) => a.status === 200 && a.body === SUCCESS).length}/${answers.length}`,
      'new connection refused while draining': refusedDuringDrain,
      'exit code': code ?? signal,
      'SIGTERM to exit ms': ms(exitMs),
      'embedded redis-server stopped': redisGone,
      'pid file removed': pidFileGone,
      'in-flight writes in the AOF': flushed,
      'writes kept after a restart': `${kept + keptInFlight}/${20 + answers.length}`,
      'error log lines during shutdown': errorsLogged,
    });

    for (const answer of answers) expect(answer.status, answer.body).to.equal(200);
    for (const answer of answers) expect(answer.body).to.equal(SUCCESS);
    expect(refusedDuringDrain, 'no new connection accepted after SIGTERM').to.equal(true);
    expect(code).to.equal(0);
    expect(exitMs).to.be.below(10_000);
    expect(redisGone, 'the embedded redis-server stopped with the server').to.equal(true);
    expect(pidFileGone).to.equal(true);
    expect(flushed, 'the last writes are in the append-only file').to.equal(true);
    expect(kept).to.equal(20);
    expect(keptInFlight).to.equal(answers.length);
    expect(errorsLogged, log.slice(-2000)).to.equal(0);
  });

  it('an idle server exits 0 at once', async () => {
    const idle = await startChildServer();
    const at = performance.now();
    idle.kill('SIGTERM');
    const { code } = await idle.exited;
    const idleExitMs = performance.now() - at;
    await disposeChildServer(idle);
    printFigures('fault 4b: SIGTERM of an idle server', { 'exit code': code, 'exit ms': ms(idleExitMs) });
    expect(code).to.equal(0);
    expect(idleExitMs).to.be.below(5000);
  });

  it('ends within the drain time whatever the clients do: Upgrade requests, a body that never comes, idle keep-alive (issue 22, finding 2)', async () => {
    const server = await startChildServer();
    const [redisPid] = server.pidFile() ?? [];
    const sockets: net.Socket[] = [];
    const open = (bytes: string) => {
      const connection = openRaw(server.port, bytes);
      sockets.push(connection.socket);
      return connection.done.then(({ data }) => data.toString('latin1'));
    };
    // Twenty Upgrade requests whose clients never close; before the fix each held its socket for ever.
    const upgrades = Array.from({ length: 20 }, () =>
      open('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n'),
    );
    // A PUT whose body never comes, and an idle keep-alive connection.
    open(
      `PUT /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${FORM_TYPE}\r\nContent-Length: 100\r\n\r\nid=1`,
    );
    open('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const upgradeAnswers = await Promise.race([Promise.all(upgrades), sleep(5_000).then(() => undefined)]);
    const signalledAt = performance.now();
    server.kill('SIGTERM');
    const exit = await Promise.race([server.exited, sleep(20_000).then(() => undefined)]);
    const exitMs = performance.now() - signalledAt;
    const redisGone = !(redisPid !== undefined && isAlive(redisPid) && isRedis(redisPid));
    for (const socket of sockets) socket.destroy();
    await disposeChildServer(server);
    printFigures('fault 4c: SIGTERM with clients that hold their sockets', {
      'Upgrade requests answered and closed': upgradeAnswers
        ? upgradeAnswers.filter((a) => /^HTTP\/1\.1 200 /.test(a)).length
        : 'no (held open)',
      'exit code': exit ? (exit.code ?? exit.signal) : 'still running after 20 s',
      'SIGTERM to exit ms': ms(exitMs),
      'embedded redis-server stopped': redisGone,
    });
    expect(upgradeAnswers, 'every Upgrade request answered, its connection closed').to.not.equal(undefined);
    expect(
      upgradeAnswers?.every((a) => /^HTTP\/1\.1 200 /.test(a) && /\r\nConnection: close\r\n/i.test(a)),
    ).to.equal(true);
    expect(exit?.code).to.equal(0);
    // The drain waits at most 8 s for the PUT whose body never comes, then cuts it.
    expect(exitMs).to.be.below(10_000);
    expect(redisGone).to.equal(true);
  });
});
