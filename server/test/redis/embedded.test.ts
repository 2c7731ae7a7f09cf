import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { type RunningService, startService } from '../../src/service.ts';
import { call, SUCCESS, sendForm } from '../support/http.ts';

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('redis: the embedded Redis (no REDIS_URL)', () => {
  let dataDir: string;
  let service: RunningService | undefined;
  const start = async () => {
    service = await startService({
      config: { ...loadConfig({}), port: 0, dataDir, logLevel: 'silent' },
      logger: pino({ level: 'silent' }),
    });
    return `${service.url}/UserService/users`;
  };
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'usersvc-embedded-'));
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every user across a restart of the server and its Redis (append-only file)', async () => {
    let base = await start();
    expect((await sendForm(base, 'PUT', { id: 2, name: 'naresh', profession: 'clerk' })).body).to.equal(
      SUCCESS,
    );
    expect((await sendForm(base, 'POST', { id: 1, name: 'suresh', profession: 'clerk' })).body).to.equal(
      SUCCESS,
    );
    const before = (await call(base)).body;
    await service!.close();
    expect(fs.existsSync(path.join(dataDir, 'redis', 'appendonlydir'))).to.equal(true);
    base = await start();
    expect((await call(base)).body).to.equal(before);
  });

  it('listens on a unix socket in a 0700 folder, not on TCP', async () => {
    await start();
    const socketDir = path.dirname(service!.embeddedRedis!.socketPath);
    expect(fs.statSync(socketDir).mode & 0o777).to.equal(0o700);
    expect(fs.statSync(service!.embeddedRedis!.socketPath).isSocket()).to.equal(true);
  });

  it('restarts a killed redis-server, answering 503 meanwhile, and loses no acknowledged write', async () => {
    const base = await start();
    expect((await sendForm(base, 'PUT', { id: 3, name: 'kept', profession: 'safe' })).body).to.equal(SUCCESS);
    const pid = service!.embeddedRedis!.pid!;
    process.kill(pid, 'SIGKILL');
    const during = await waitFor('a 503', async () => {
      const res = await call(base);
      return res.status === 503 ? res : undefined;
    });
    expect(during.body).to.contain('<code>service_unavailable</code>');
    expect(during.body).not.to.match(/ECONN|redis\.sock|\/tmp|at \w+ \(/);
    await waitFor('recovery', async () => ((await call(`${base}/3`)).status === 200 ? true : undefined));
    expect(service!.embeddedRedis!.pid).to.not.equal(pid);
    expect((await call(`${base}/3`)).body).to.contain('<name>kept</name>');
  });

  it('reclaims the data folder from an orphaned redis-server left by a killed server', async () => {
    const base = await start();
    await sendForm(base, 'PUT', { id: 4, name: 'orphan', profession: 'data' });
    const orphanPid = service!.embeddedRedis!.pid!;
    // Simulate a SIGKILLed server: its redis-server keeps running and the pid file names a dead owner.
    const pidFile = path.join(dataDir, 'redis', 'embedded-redis.pid');
    fs.writeFileSync(pidFile, `${orphanPid} 999999\n`);
    const abandoned = service!;
    service = undefined;
    const next = await start();
    expect((await call(`${next}/4`)).body).to.contain('<name>orphan</name>');
    expect(() => process.kill(orphanPid, 0)).to.throw();
    await abandoned.close().catch(() => {});
  });

  it('exits with a clear message when no redis-server binary exists', async () => {
    try {
      await startService({
        config: {
          ...loadConfig({}),
          port: 0,
          dataDir,
          redisServerBin: '/nonexistent/redis-server',
          logLevel: 'silent',
        },
        logger: pino({ level: 'silent' }),
      });
      expect.fail('startService should have failed');
    } catch (err) {
      expect((err as Error).message)
        .to.match(/apt-get install redis-server/)
        .and.match(/REDIS_URL/);
    }
  });
});
