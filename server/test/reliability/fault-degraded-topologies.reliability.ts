import { Redis } from 'ioredis';
import { startTopology, type Topology, type TopologyKind } from '../support/topologies.ts';
import { type ChildServer, disposeChildServer, sleep, startChildServer } from './support/child-server.ts';
import { type FaultWindow, runDegradedCase, stallProcess } from './support/degraded.ts';

/**
 * Issue 23 on every topology: the master holding the service's slot stalled (SIGSTOP/SIGCONT), and
 * every client connection of every data node dropped (CLIENT KILL TYPE normal), under the mixed load,
 * WAIT on (the default on these topologies). The stalls are shorter than the failure detection
 * (down-after-milliseconds and cluster-node-timeout are 1 s in these topologies): a longer stall is a
 * failover, which fault-failover.reliability.ts covers. TOPOLOGY_STALLS_MS=600,900,... changes them.
 */
const stalls = (process.env.TOPOLOGY_STALLS_MS ?? '700,700,700').split(',').map(Number);

for (const kind of ['sentinel', 'cluster'] as TopologyKind[]) {
  describe(`fault matrix on ${kind} (WAIT on): a stalled master, dropped connections`, function () {
    this.timeout(180_000);
    let topology: Topology | undefined;
    let server: ChildServer | undefined;
    before(async () => {
      topology = await startTopology(kind);
      server = await startChildServer({ env: { ...topology.env, REDIS_WAIT_REPLICAS: '1' } });
    });
    after(async () => {
      await disposeChildServer(server);
      await topology?.stop();
    });

    it('the master stalled (SIGSTOP/SIGCONT) several times', async () => {
      const t = topology as Topology;
      const port = await t.serviceMaster();
      const pid = t.nodes.find((node) => node.port === port)?.proc?.pid;
      if (!pid) throw new Error(`no process for the master on ${port}`);
      await runDegradedCase({
        title: `degraded: ${kind} master stalled`,
        url: (server as ChildServer).url,
        idsFrom: 30_000,
        expectNotReady: false,
        fault: () => stallProcess(pid, stalls, 1500),
      });
    });

    it('every client connection of every data node dropped, three times', async () => {
      const t = topology as Topology;
      await runDegradedCase({
        title: `degraded: ${kind} connections dropped (x3)`,
        url: (server as ChildServer).url,
        idsFrom: 31_000,
        expectNotReady: false,
        fault: async () => {
          const windows: FaultWindow[] = [];
          for (let i = 0; i < 3; i++) {
            const from = performance.now();
            await Promise.all(t.nodes.filter((node) => node.proc).map((node) => dropClients(node.port)));
            await sleep(1000);
            windows.push({ from, to: performance.now() });
          }
          return windows;
        },
      });
    });
  });
}

/** CLIENT KILL TYPE normal on one node: every client connection (not replication links) is closed. */
async function dropClients(port: number): Promise<void> {
  const admin = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0, retryStrategy: () => null });
  admin.on('error', () => {});
  try {
    await admin.client('KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
  } finally {
    admin.disconnect();
  }
}
