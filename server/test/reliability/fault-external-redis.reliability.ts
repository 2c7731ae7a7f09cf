import { expect } from 'chai';
import { request } from '../../../testing/http.ts';
import { startLocalRedis, type TestRedis } from '../../../testing/redis.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { sleep } from './support/child-server.ts';
import { describeAnomalies, maxOf, ms, percentile, printFigures } from './support/figures.ts';
import { type Op, tally } from './support/history.ts';
import { range, readFinalState, runWorkload } from './support/workload.ts';

/**
 * Issue 5, fault 3: an external Redis (REDIS_URL) stopped and started again under load. While it is
 * down: 503 within 2 s and /readyz 503 (/healthz stays 200); afterwards the same server process
 * serves again with no restart, and the operation log checks out.
 */
describe('fault: the external Redis (REDIS_URL) stopped and started again under load', function () {
  this.timeout(120_000);
  let svc: TestService | undefined;
  let redis: TestRedis | undefined;
  after(async () => {
    await svc?.close();
    await redis?.stop();
  });

  it('answers 503 while it is down, /readyz follows, and it recovers without a restart', async () => {
    const db = await startLocalRedis();
    redis = db;
    svc = await startTestService({}, db);
    const server = svc;
    const ids = range(3000, 40);
    const outages: Array<{
      signal: string;
      at: number;
      readyDownMs?: number;
      readyUpMs?: number;
      recoveredMs?: number;
      healthz: number[];
    }> = [];
    let stopLoad!: () => void;
    const stop = new Promise<void>((resolve) => {
      stopLoad = resolve;
    });
    const onOp = (op: Op) => {
      const outage = outages[outages.length - 1];
      if (
        outage?.readyUpMs !== undefined &&
        outage.recoveredMs === undefined &&
        op.kind !== 'read' &&
        op.outcome === 'ok'
      ) {
        outage.recoveredMs = op.end - outage.at;
      }
    };
    const load = runWorkload({
      base: server.url,
      clients: 10,
      durationMs: 90_000,
      maxOps: 300_000,
      userIds: ids,
      backoffMs: 20,
      onOp,
      stop,
    });
    await sleep(2500);
    const readyz = async () => (await request(`${server.url}/readyz`, { timeoutMs: 3000 })).status;
    const healthz = async () => (await request(`${server.url}/healthz`, { timeoutMs: 3000 })).status;
    expect(await readyz()).to.equal(200);

    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      const outage: (typeof outages)[number] = { signal, at: performance.now(), healthz: [] };
      outages.push(outage);
      await db.stopTemporarily(signal);
      while (performance.now() - outage.at < 2500) {
        const status = await readyz();
        if (status === 503 && outage.readyDownMs === undefined)
          outage.readyDownMs = performance.now() - outage.at;
        outage.healthz.push(await healthz());
        await sleep(100);
      }
      await db.start();
      const restartedAt = performance.now();
      while (performance.now() - restartedAt < 15_000 && (await readyz()) !== 200) await sleep(25);
      outage.readyUpMs = performance.now() - restartedAt;
      await sleep(2500);
    }
    stopLoad();
    const { history, elapsedMs } = await load;

    const final = await readFinalState(server.url);
    final.delete(1);
    const anomalies = history.check(final);
    const ops = history.ops;
    const unavailable = ops.filter((op) => op.outcome === 'unavailable');
    const latencies = unavailable.map((op) => op.end - op.start);
    printFigures('fault 3: external Redis stopped and started', {
      'duration s': (elapsedMs / 1000).toFixed(1),
      operations: ops.length,
      'acknowledged writes': ops.filter((op) => op.kind !== 'read' && op.outcome === 'ok').length,
      outcomes: tally(ops, (op) => op.outcome),
      '503 answers': unavailable.length,
      '503 latency ms (p50/p99/max)': `${ms(percentile(latencies, 50))}/${ms(percentile(latencies, 99))}/${ms(maxOf(latencies))}`,
      outages: outages.map((o) => ({
        signal: o.signal,
        readyz503AfterMs: ms(o.readyDownMs ?? -1),
        readyz200AfterRestartMs: ms(o.readyUpMs ?? -1),
        stopToFirstAckedWriteMs: ms(o.recoveredMs ?? -1),
        healthzWhileDown: [...new Set(o.healthz)],
      })),
      'final users': final.size,
      anomalies: anomalies.length,
    });

    expect(anomalies, describeAnomalies(anomalies, 20)).to.deep.equal([]);
    expect(unavailable.length).to.be.greaterThan(0);
    expect(maxOf(latencies), 'every 503 within 2 s').to.be.below(2000);
    const noAnswer = ops.filter((op) => op.outcome === 'indeterminate' && op.detail !== 'outcome_unknown');
    expect(
      noAnswer.map((op) => `${op.kind} #${op.seq} ${op.detail}`),
      'no request hung',
    ).to.deep.equal([]);
    for (const o of outages) {
      expect(o.readyDownMs, `/readyz answered 503 while Redis was down (${o.signal})`).to.be.a('number');
      expect(o.healthz, '/healthz stays 200').to.satisfy((list: number[]) => list.every((s) => s === 200));
      expect(o.readyUpMs, '/readyz back to 200').to.be.below(15_000);
      expect(o.recoveredMs, 'writes succeed again without restarting the server').to.be.a('number');
    }
  });
});
