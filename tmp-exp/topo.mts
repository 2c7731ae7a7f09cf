import { startTopology } from '/work/wt/issue-16a/server/test/support/topologies.ts';
for (const kind of [process.argv[2]] as Array<'sentinel' | 'cluster'>) {
  let t0 = Date.now();
  const t = await startTopology(kind);
  console.log(kind, 'started in', Date.now() - t0, 'env', t.env, 'master', await t.serviceMaster());
  t0 = Date.now();
  const killed = await t.killServiceMaster();
  const m = await t.waitForFailover(killed.port);
  console.log('failover to', m, 'in', Date.now() - t0);
  await t.restart(killed);
  t0 = Date.now();
  await t.waitUntilReplicated();
  console.log('replicated again in', Date.now() - t0);
  await t.flush();
  await t.stop();
}
