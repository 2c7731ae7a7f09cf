import { expect } from 'chai';
import { startTopology, type Topology, type TopologyKind } from '../support/topologies.ts';
import { type ChildServer, disposeChildServer, sleep, startChildServer } from './support/child-server.ts';
import { describeAnomalies, maxOf, ms, percentile, printFigures } from './support/figures.ts';
import { type Op, tally } from './support/history.ts';
import { range, readFinalState, runWorkload } from './support/workload.ts';

/**
 * Issue 16: `kill -9` of the Redis master under a mixed write load, on Redis Sentinel (one master, one
 * replica, three sentinels) and on Redis Cluster (three masters with one replica each; the master that
 * holds the `{usersvc}` slot is killed). A replica takes over; the server answers 503/504 meanwhile and
 * serves again without a restart. The killed node is started again (as a supervisor would) and rejoins
 * as a replica: with one replica per master, changes can be acknowledged again only then.
 *
 * With WAIT (the default on these topologies) the operation log must show 0 anomalies: no lost
 * acknowledged write, no resurrected user, no duplicate create. With REDIS_WAIT_REPLICAS=0 the same run
 * prints what it found, without asserting that nothing was lost: that is what WAIT buys.
 */
const RUNS: Array<{ kind: TopologyKind; wait: boolean }> = [
  { kind: 'sentinel', wait: true },
  { kind: 'cluster', wait: true },
  { kind: 'sentinel', wait: false },
  { kind: 'cluster', wait: false },
];

for (const { kind, wait } of RUNS) {
  describe(`fault: kill -9 of the ${kind} master under load, WAIT ${wait ? 'on (default)' : 'off (REDIS_WAIT_REPLICAS=0)'}`, function () {
    this.timeout(180_000);
    let topology: Topology | undefined;
    let server: ChildServer | undefined;
    after(async () => {
      await disposeChildServer(server);
      await topology?.stop();
    });

    it(
      wait
        ? 'answers only 503/504 or the right answer meanwhile, serves again without a restart, and loses no acknowledged write'
        : 'answers only 503/504 or the right answer meanwhile and serves again (lost writes are counted, not refused)',
      async () => {
        topology = await startTopology(kind);
        const env = { ...topology.env, REDIS_WAIT_REPLICAS: wait ? '1' : '0' };
        server = await startChildServer({ env });
        const child = server;
        const ids = range(5000, 40);
        const events: { kill?: number; failover?: number; restarted?: number; replicated?: number } = {};
        let firstOkWriteAfterKill: number | undefined;
        const onOp = (op: Op) => {
          if (events.kill === undefined || op.start < events.kill) return;
          if (op.kind !== 'read' && op.outcome === 'ok' && events.failover !== undefined)
            firstOkWriteAfterKill ??= op.end;
        };
        let stopLoad!: () => void;
        const stop = new Promise<void>((resolve) => {
          stopLoad = resolve;
        });
        const load = runWorkload({
          base: child.url,
          clients: 10,
          durationMs: 120_000,
          maxOps: 1_000_000,
          userIds: ids,
          backoffMs: 20,
          onOp,
          stop,
        });
        await sleep(3000);
        const oldMaster = await topology.serviceMaster();
        const killed = await topology.killServiceMaster();
        events.kill = performance.now(); // the process is gone
        const newMaster = await topology.waitForFailover(oldMaster);
        events.failover = performance.now();
        await topology.restart(killed);
        events.restarted = performance.now();
        await topology.waitUntilReplicated();
        events.replicated = performance.now();
        // Load goes on until writes are acknowledged again for a while (at most 20 s).
        const deadline = performance.now() + 20_000;
        while (performance.now() < deadline && firstOkWriteAfterKill === undefined) await sleep(100);
        await sleep(3000);
        stopLoad();
        const { history, elapsedMs } = await load;

        const final = await readFinalState(child.url);
        final.delete(1);
        const anomalies = history.check(final);
        const ops = history.ops;
        const kill = events.kill ?? 0;
        const afterKill = ops.filter((op) => op.start >= kill);
        const unavailable = afterKill.filter((op) => op.outcome === 'unavailable');
        const unknown = afterKill.filter((op) => op.outcome === 'indeterminate');
        const failed = [...unavailable, ...unknown];
        const lastFailure = failed.reduce<Op | undefined>(
          (a, b) => (a && a.start > b.start ? a : b),
          undefined,
        );
        const firstAfter = (from: number, pick: (op: Op) => boolean) =>
          afterKill
            .filter((op) => op.start >= from && pick(op))
            .reduce<number | undefined>((t, op) => (t === undefined || op.end < t ? op.end : t), undefined);
        const since = (t: number | undefined) => (t === undefined ? -1 : ms(t - kill));
        const byKind = tally(anomalies, (a) => a.kind);
        const latencies = failed.map((op) => op.end - op.start);
        printFigures(`failover: ${kind}, WAIT ${wait ? 'on' : 'off'}`, {
          'duration s': (elapsedMs / 1000).toFixed(1),
          operations: ops.length,
          'acknowledged writes': ops.filter((op) => op.kind !== 'read' && op.outcome === 'ok').length,
          outcomes: tally(ops, (op) => op.outcome),
          masters: `${oldMaster} killed, ${newMaster} took over`,
          'kill → replica promoted ms': since(events.failover),
          'kill → killed node restarted ms': since(events.restarted),
          'kill → replica in sync again ms': since(events.replicated),
          'kill → first successful read ms': since(
            firstAfter(kill, (op) => op.kind === 'read' && op.outcome === 'ok'),
          ),
          'kill → first acknowledged write ms': since(
            firstAfter(kill, (op) => op.kind !== 'read' && op.outcome === 'ok'),
          ),
          'kill → last 503/504 answered ms': since(lastFailure?.end),
          'unavailability window ms (kill → first write acknowledged after the last 503/504)': since(
            firstAfter(lastFailure?.start ?? kill, (op) => op.kind !== 'read' && op.outcome === 'ok'),
          ),
          '503 answers': unavailable.length,
          '504 answers': unknown.filter((op) => op.detail === 'outcome_unknown').length,
          'no answer (client timeout/reset)': unknown.filter((op) => op.detail !== 'outcome_unknown').length,
          '503/504 latency ms (p50/p99/max)': `${ms(percentile(latencies, 50))}/${ms(percentile(latencies, 99))}/${ms(maxOf(latencies))}`,
          'final users': final.size,
          anomalies: anomalies.length,
          'anomalies by kind': byKind,
        });

        expect(child.proc.exitCode, 'the server kept running').to.equal(null);
        // How many answers were 503/504 is a figure, not a verdict: a failover that ends within a
        // request's deadline is ridden out with no 503 at all (seen once on a loaded machine, cluster,
        // WAIT off). What is answered meanwhile is checked below: only the documented answers.
        expect(firstOkWriteAfterKill, 'writes are acknowledged again without a restart').to.be.a('number');
        expect(
          ops.filter((op) => op.outcome === 'unexpected').map((op) => `${op.kind} ${op.status} ${op.detail}`),
          'only the documented answers',
        ).to.deep.equal([]);
        const noAnswer = unknown.filter((op) => op.detail !== 'outcome_unknown');
        expect(
          noAnswer.map((op) => `${op.kind} #${op.seq} ${op.detail}`),
          'every request was answered',
        ).to.deep.equal([]);
        if (wait) expect(anomalies, describeAnomalies(anomalies, 20)).to.deep.equal([]);
        else if (anomalies.length > 0)
          console.log(`      without WAIT:\n${describeAnomalies(anomalies, 10)}`);
      },
    );
  });
}
