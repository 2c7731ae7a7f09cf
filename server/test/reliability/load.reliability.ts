import { expect } from 'chai';
import {
  type ChildServer,
  disposeChildServer,
  serverCommand,
  startChildServer,
} from './support/child-server.ts';
import { describeAnomalies, maxOf, ms, percentile, printFigures } from './support/figures.ts';
import { tally } from './support/history.ts';
import { range, readFinalState, runWorkload } from './support/workload.ts';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 32);
const IDS = 48;

/**
 * Issue 5, load and concurrency: a bounded mixed workload (creates, updates, deletes and reads of
 * overlapping ids by many clients) against the real server with its embedded Redis. Every operation
 * and answer is logged, then checked against the final state: no lost update, no resurrected user, no
 * two successful creates of one id, no torn record, no answer contradicting every possible order.
 */
describe(`load: ${CLIENTS} clients, mixed operations on ${IDS} shared ids for ${SECONDS} s`, function () {
  this.timeout((SECONDS + 90) * 1000);
  let child: ChildServer | undefined;
  after(() => disposeChildServer(child));

  it('every answer is consistent with the final state and with each other (0 anomalies)', async () => {
    child = await startChildServer();
    const ids = range(5000, IDS);
    const { history, elapsedMs } = await runWorkload({
      base: child.url,
      clients: CLIENTS,
      durationMs: SECONDS * 1000,
      maxOps: 2_000_000,
      userIds: ids,
      mix: { create: 3, update: 3, delete: 2, read: 3 },
      pathFormShare: 0.25,
    });
    const final = await readFinalState(child.url);
    final.delete(1);
    const checkStarted = performance.now();
    const anomalies = history.check(final);
    const checkMs = performance.now() - checkStarted;
    const ops = history.ops;
    const latencies = ops.map((op) => op.end - op.start);
    const failures = ops.filter((op) => op.outcome !== 'ok' && op.outcome !== 'rejected');
    printFigures('load: mixed workload', {
      command: serverCommand().label,
      clients: CLIENTS,
      'duration s': (elapsedMs / 1000).toFixed(1),
      operations: ops.length,
      'operations/s': Math.round(ops.length / (elapsedMs / 1000)),
      'by kind and answer': tally(ops, (op) => `${op.kind} ${op.outcome}`),
      'acknowledged writes': ops.filter((op) => op.kind !== 'read' && op.outcome === 'ok').length,
      'failures by kind (503, 504, no answer, unexpected)': tally(
        failures,
        (op) => `${op.outcome}${op.detail ? ` ${op.detail.slice(0, 40)}` : ''}`,
      ),
      'latency ms p50/p99/max': `${percentile(latencies, 50).toFixed(1)}/${percentile(latencies, 99).toFixed(1)}/${ms(maxOf(latencies))}`,
      'final users': final.size,
      'check ms': ms(checkMs),
      anomalies: anomalies.length,
    });

    expect(anomalies, describeAnomalies(anomalies, 20)).to.deep.equal([]);
    expect(
      failures.map((op) => `${op.kind} ${op.outcome} ${op.status} ${op.detail ?? ''}`).slice(0, 10),
      'no failed operation',
    ).to.deep.equal([]);
    expect(ops.length, 'the workload ran').to.be.greaterThan(SECONDS * 50);
    // The workload touched every kind of answer, so the check covered real races.
    for (const key of [
      'create ok',
      'create rejected',
      'update ok',
      'update rejected',
      'delete ok',
      'delete rejected',
      'read ok',
    ]) {
      expect(
        ops.some((op) => `${op.kind} ${op.outcome}` === key),
        key,
      ).to.equal(true);
    }
  });
});
