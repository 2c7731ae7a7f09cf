import { Redis } from 'ioredis';
import { startLocalRedis, type TestRedis } from '../../../testing/redis.ts';
import { type ChildServer, disposeChildServer, sleep, startChildServer } from './support/child-server.ts';
import { type FaultWindow, runDegradedCase, stallDurations, stallProcess } from './support/degraded.ts';
import { TcpProxy } from './support/tcp-proxy.ts';

/**
 * Issue 23: a Redis that is alive but misbehaves, under a mixed read/write load, against the real
 * server process: stalls (SIGSTOP/SIGCONT of redis-server, external and embedded), latency, dropped
 * connections and a black hole (a TCP proxy of our own between the server and Redis), refused writes
 * (maxmemory with noeviction: OOM; CLIENT PAUSE WRITE). Each case checks the operation log, that every
 * kind of request succeeds again within RECOVERY_LIMIT_MS after the fault, and what /readyz said.
 * Stalls are short and few by default (CI); STALLS_MS=1000,5000,3000,... plays longer ones.
 */
describe('fault matrix: a degraded Redis under load (stalls, latency, dropped connections, refused writes)', function () {
  this.timeout(180_000);
  let redis: TestRedis | undefined;
  let proxy: TcpProxy | undefined;
  let server: ChildServer | undefined;
  let admin: Redis | undefined;
  afterEach(async () => {
    admin?.disconnect();
    admin = undefined;
    await disposeChildServer(server);
    server = undefined;
    await proxy?.close();
    proxy = undefined;
    await redis?.stop();
    redis = undefined;
  });

  /** An external Redis (REDIS_URL), through the proxy when asked. */
  const setUp = async (viaProxy: boolean) => {
    redis = await startLocalRedis();
    if (viaProxy) proxy = await TcpProxy.start('127.0.0.1', redis.port);
    server = await startChildServer({ env: { REDIS_URL: proxy?.url ?? redis.url } });
    admin = new Redis(redis.url);
    return { redis, server, admin };
  };

  it('external Redis stalled (SIGSTOP/SIGCONT) several times', async () => {
    const { redis, server } = await setUp(false);
    await runDegradedCase({
      title: 'degraded: external Redis stalled',
      url: server.url,
      idsFrom: 20_000,
      expectNotReady: true,
      fault: () => stallProcess(redis.pid as number, stallDurations([1000, 3500, 2000]), 2000),
    });
  });

  it('added latency (300 ms each way) through the proxy', async () => {
    const { server } = await setUp(true);
    const p = proxy as TcpProxy;
    await runDegradedCase({
      title: 'degraded: 300 ms latency each way',
      url: server.url,
      idsFrom: 21_000,
      expectNotReady: false,
      fault: async () => {
        p.setDelay(300);
        const from = performance.now();
        await sleep(4000);
        p.setDelay(0);
        return [{ from, to: performance.now() }];
      },
    });
  });

  it('every connection cut by the proxy, three times', async () => {
    const { server } = await setUp(true);
    const p = proxy as TcpProxy;
    await runDegradedCase({
      title: 'degraded: every connection cut (x3)',
      url: server.url,
      idsFrom: 22_000,
      expectNotReady: false,
      fault: async () => {
        const windows: FaultWindow[] = [];
        for (let i = 0; i < 3; i++) {
          const from = performance.now();
          p.cutAll();
          await sleep(1000);
          windows.push({ from, to: performance.now() });
        }
        return windows;
      },
    });
  });

  it('black hole for 3 s, then let through; black hole for 3 s, then every connection cut', async () => {
    const { server } = await setUp(true);
    const p = proxy as TcpProxy;
    await runDegradedCase({
      title: 'degraded: black hole (restored, then cut)',
      url: server.url,
      idsFrom: 23_000,
      expectNotReady: true,
      fault: async () => {
        const windows: FaultWindow[] = [];
        for (const end of ['restore', 'cut'] as const) {
          const from = performance.now();
          p.blackhole();
          await sleep(3000);
          if (end === 'cut') p.cutAll();
          p.restore();
          windows.push({ from, to: performance.now() });
          await sleep(2000);
        }
        return windows;
      },
    });
  });

  it('writes refused: maxmemory reached (OOM, noeviction) for 4 s', async () => {
    const { server, admin } = await setUp(false);
    await runDegradedCase({
      title: 'degraded: maxmemory reached (OOM)',
      url: server.url,
      idsFrom: 24_000,
      expectNotReady: true,
      fault: async () => {
        const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))?.[1]);
        await admin.config('SET', 'maxmemory-policy', 'noeviction');
        await admin.config('SET', 'maxmemory', String(Math.max(1, used - 200_000)));
        const from = performance.now();
        await sleep(4000);
        await admin.config('SET', 'maxmemory', '0');
        return [{ from, to: performance.now() }];
      },
    });
  });

  it('writes held: CLIENT PAUSE 3000 WRITE', async () => {
    const { server, admin } = await setUp(false);
    await runDegradedCase({
      title: 'degraded: CLIENT PAUSE WRITE 3 s',
      url: server.url,
      idsFrom: 25_000,
      expectNotReady: true,
      fault: async () => {
        const from = performance.now();
        await admin.call('CLIENT', 'PAUSE', '3000', 'WRITE');
        await sleep(3000);
        return [{ from, to: performance.now() }];
      },
    });
  });

  it("embedded Redis stalled (make run's default path)", async () => {
    server = await startChildServer();
    const embedded = server.pidFile()?.[0];
    if (!embedded) throw new Error('no embedded redis-server pid');
    await runDegradedCase({
      title: 'degraded: embedded Redis stalled',
      url: server.url,
      idsFrom: 26_000,
      expectNotReady: true,
      fault: () => stallProcess(embedded, stallDurations([1000, 3500]), 2000),
    });
  });
});
