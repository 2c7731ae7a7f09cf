import { expect } from 'chai';
import {
  type ChildServer,
  disposeChildServer,
  isAlive,
  serverCommand,
  sleep,
  startChildServer,
} from './support/child-server.ts';
import { describeAnomalies, ms, printFigures } from './support/figures.ts';
import { type Op, tally } from './support/history.ts';
import { range, readFinalState, runWorkload } from './support/workload.ts';

/**
 * Issue 5, fault 2: kill -9 of the server process under load, then the same start command again on
 * the same port and data folder. Requests in flight at the kill have no answer (indeterminate: they
 * may or may not have happened); everything acknowledged must be in the final state, and nothing
 * answered failure took effect.
 */
describe('fault: kill -9 of the server process under load, then start it again', function () {
  this.timeout(120_000);
  let first: ChildServer | undefined;
  let second: ChildServer | undefined;
  after(async () => {
    await disposeChildServer(second, false);
    await disposeChildServer(first);
  });

  it('keeps every acknowledged write across the crash and the restart', async () => {
    first = await startChildServer();
    const url = first.url;
    const ids = range(2000, 40);
    let killAt = Number.POSITIVE_INFINITY;
    let restartedAt = Number.POSITIVE_INFINITY;
    let firstOkAfterRestart: number | undefined;
    let stopLoad!: () => void;
    const stop = new Promise<void>((resolve) => {
      stopLoad = resolve;
    });
    const onOp = (op: Op) => {
      if (
        op.start > restartedAt &&
        firstOkAfterRestart === undefined &&
        op.kind !== 'read' &&
        op.outcome === 'ok'
      ) {
        firstOkAfterRestart = op.end;
      }
    };
    const load = runWorkload({
      base: url,
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
    const [orphanRedisPid] = first.pidFile() ?? [];
    killAt = performance.now();
    first.kill('SIGKILL');
    await first.exited;
    const exitSeenAt = performance.now();
    await sleep(500);
    const orphanAliveAfterKill = orphanRedisPid !== undefined && isAlive(orphanRedisPid);
    const restartBegan = performance.now();
    second = await startChildServer({ port: first.port, dataDir: first.dataDir });
    restartedAt = performance.now();
    const startupMs = restartedAt - restartBegan;
    await sleep(3000);
    stopLoad();
    const { history, elapsedMs } = await load;

    const final = await readFinalState(url);
    final.delete(1);
    const anomalies = history.check(final);
    const ops = history.ops;
    const inFlight = ops.filter((op) => op.outcome === 'indeterminate');
    printFigures('fault 2: kill -9 server process, start again', {
      command: serverCommand().label,
      'duration s': (elapsedMs / 1000).toFixed(1),
      operations: ops.length,
      'acknowledged writes': ops.filter((op) => op.kind !== 'read' && op.outcome === 'ok').length,
      outcomes: tally(ops, (op) => op.outcome),
      'in flight at the kill (no answer)': inFlight.length,
      'refused while down': ops.filter((op) => op.outcome === 'refused').length,
      'orphaned redis-server alive after the kill': orphanAliveAfterKill,
      'restart to ready ms': ms(startupMs),
      'kill to first acknowledged write ms': ms((firstOkAfterRestart ?? Number.NaN) - killAt),
      'final users': final.size,
      anomalies: anomalies.length,
    });

    expect(anomalies, describeAnomalies(anomalies)).to.deep.equal([]);
    expect(firstOkAfterRestart, 'writes succeed after the restart').to.be.a('number');
    expect(history.count((op) => op.outcome === 'unexpected')).to.equal(0);
    // The orphaned redis-server of the killed server was reclaimed, not left running beside the new one.
    if (orphanRedisPid !== undefined) expect(isAlive(orphanRedisPid), 'orphan reclaimed').to.equal(false);
    const [newRedis, owner] = second.pidFile() ?? [];
    expect(owner).to.equal(second.pid);
    expect(newRedis).to.not.equal(orphanRedisPid);
    const late = inFlight.filter((op) => op.start > exitSeenAt);
    expect(
      late.map((op) => `${op.kind} #${op.seq} ${op.detail}`),
      'only requests in flight at the kill are without an answer',
    ).to.deep.equal([]);
  });
});
