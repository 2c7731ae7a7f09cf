import { expect } from 'chai';
import {
  type ChildServer,
  disposeChildServer,
  isAlive,
  serverCommand,
  sleep,
  startChildServer,
} from './support/child-server.ts';
import { describeAnomalies, maxOf, ms, percentile, printFigures } from './support/figures.ts';
import { type Op, tally } from './support/history.ts';
import { range, readFinalState, runWorkload } from './support/workload.ts';

/**
 * Issue 5, fault 1: kill -9 of the embedded redis-server under a steady write load. While it is down
 * the server answers 503 with a clear body within 2 s; its supervisor restarts Redis with backoff;
 * every acknowledged write is in the final state and nothing answered failure or 503 took effect.
 */
describe('fault: kill -9 of the embedded redis-server under write load', function () {
  this.timeout(120_000);
  let child: ChildServer | undefined;
  after(() => disposeChildServer(child));

  it('answers 503 fast while Redis is down, restarts it, and loses no acknowledged write', async () => {
    child = await startChildServer();
    const server = child;
    const ids = range(1000, 40);
    const kills: Array<{
      at: number;
      oldPid: number;
      newPid?: number;
      recoveredMs?: number;
      firstAnswerMs?: number;
    }> = [];
    let stopLoad!: () => void;
    const stop = new Promise<void>((resolve) => {
      stopLoad = resolve;
    });
    const onOp = (op: Op) => {
      const kill = kills[kills.length - 1];
      if (!kill || op.start < kill.at) return;
      if (kill.firstAnswerMs === undefined && op.outcome !== 'ok' && op.outcome !== 'rejected')
        kill.firstAnswerMs = op.end - kill.at;
      if (
        kill.recoveredMs === undefined &&
        op.kind !== 'read' &&
        (op.outcome === 'ok' || op.outcome === 'rejected')
      ) {
        kill.recoveredMs = op.end - kill.at;
      }
    };
    const load = runWorkload({
      base: server.url,
      clients: 12,
      durationMs: 90_000,
      maxOps: 400_000,
      userIds: ids,
      mix: { create: 3, update: 3, delete: 2, read: 1 },
      backoffMs: 20,
      pathFormShare: 0.2,
      onOp,
      stop,
    });

    await sleep(3000);
    for (let round = 0; round < 2; round++) {
      const [oldPid] = server.pidFile() ?? [];
      expect(oldPid, 'embedded redis pid file').to.be.a('number');
      kills.push({ at: performance.now(), oldPid: oldPid! });
      process.kill(oldPid!, 'SIGKILL');
      const kill = kills[kills.length - 1]!;
      const deadline = performance.now() + 30_000;
      while (kill.recoveredMs === undefined && performance.now() < deadline) await sleep(50);
      await sleep(2500);
      kill.newPid = server.pidFile()?.[0];
    }
    stopLoad();
    const { history, elapsedMs } = await load;

    const final = await readFinalState(server.url);
    final.delete(1); // the default user, not part of the workload
    const anomalies = history.check(final);
    const ops = history.ops;
    const unavailable = ops.filter((op) => op.outcome === 'unavailable');
    const writesAcked = ops.filter((op) => op.kind !== 'read' && op.outcome === 'ok').length;
    printFigures('fault 1: kill -9 embedded redis-server', {
      command: serverCommand().label,
      'duration s': (elapsedMs / 1000).toFixed(1),
      operations: ops.length,
      'acknowledged writes': writesAcked,
      outcomes: tally(ops, (op) => op.outcome),
      '503 answers': unavailable.length,
      '504 outcome_unknown (change sent, Redis died before replying)': history.count(
        (op) => op.detail === 'outcome_unknown',
      ),
      '503 latency ms (p50/p99/max)': `${ms(
        percentile(
          unavailable.map((o) => o.end - o.start),
          50,
        ),
      )}/${ms(
        percentile(
          unavailable.map((o) => o.end - o.start),
          99,
        ),
      )}/${ms(maxOf(unavailable.map((o) => o.end - o.start)))}`,
      kills: kills.map((k) => ({
        oldPid: k.oldPid,
        newPid: k.newPid,
        firstAnswerMs: ms(k.firstAnswerMs ?? -1),
        recoveredMs: ms(k.recoveredMs ?? -1),
      })),
      'final users': final.size,
      anomalies: anomalies.length,
    });

    if (anomalies.length > 0 || process.env.RELIABILITY_DEBUG) {
      const messages = tally(server.output().match(/"message":"[^"]{0,120}/g) ?? [], (m) => m);
      console.log('      server error messages:', messages);
    }
    expect(anomalies, describeAnomalies(anomalies, 20)).to.deep.equal([]);
    expect(server.proc.exitCode, 'the server process is still running').to.equal(null);
    expect(isAlive(server.pid)).to.equal(true);
    expect(unavailable.length, '503 answers while Redis was down').to.be.greaterThan(0);
    const slowest = maxOf(unavailable.map((o) => o.end - o.start));
    expect(slowest, 'every 503 within 2 s').to.be.below(2000);
    const noAnswer = ops.filter((op) => op.outcome === 'indeterminate' && op.detail !== 'outcome_unknown');
    const kill0 = kills[0]?.at ?? 0;
    expect(
      noAnswer.map(
        (op) =>
          `${op.kind} #${op.seq} ${op.detail} at +${ms(op.start - kill0)} ms for ${ms(op.end - op.start)} ms`,
      ),
      'no request hung or lost its connection',
    ).to.deep.equal([]);
    for (const k of kills) {
      expect(k.recoveredMs, 'writes succeed again after the restart').to.be.a('number');
      expect(k.newPid, 'a new redis-server').to.be.a('number').and.not.equal(k.oldPid);
    }
  });
});
