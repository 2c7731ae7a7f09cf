/**
 * `make bench-metrics` (also part of `make bench`): what the Prometheus metrics cost. The same build
 * with METRICS=0 (A) against METRICS=1 (B, as shipped), single-request scenarios, alternating A/B/B/A
 * (bench/compare-servers.ts); the issue allows metrics to cost at most 3 % of req/s. Nothing scrapes
 * /metrics during the runs: what is measured is the counting on every request.
 *
 * First, the counting alone: CPU time per request of what the server does for metrics on every request
 * (RequestMetrics.started + finished), which a busy machine disturbs far less
 * than req/s. Writes reports/bench/metrics.{json,md}.
 */
import type { Request } from 'restify';
import { RequestMetrics } from '../server/src/metrics/requests.ts';
import { runComparison, SCENARIOS } from './compare-servers.ts';

/** CPU ns per request of the metrics' hot path, over requests on a few routes, methods and statuses. */
function hotPathNs(iterations = 2_000_000): number {
  const metrics = new RequestMetrics();
  const routes = [{ path: '/UserService/users/:userid' }, { path: '/UserService/users' }, undefined];
  const requests = routes.flatMap((route) =>
    ['GET', 'PUT', 'POST'].map((method) => ({ method, getRoute: () => route }) as unknown as Request),
  );
  const statuses = [200, 404, 200, 409];
  const run = (n: number) => {
    for (let i = 0; i < n; i++) {
      const req = requests[i % requests.length] as Request;
      metrics.started(req);
      metrics.finished(req, statuses[i % statuses.length] as number);
    }
  };
  run(200_000); // warm up (JIT)
  const before = process.cpuUsage();
  run(iterations);
  const used = process.cpuUsage(before);
  return ((used.user + used.system) * 1000) / iterations;
}

const ns = Math.min(hotPathNs(), hotPathNs(), hotPathNs());
console.log(
  `metrics hot path: ${ns.toFixed(0)} ns CPU per request (best of 3 × 2,000,000; RequestMetrics.started + finished)`,
);

runComparison({
  name: 'metrics',
  title: 'metrics off (METRICS=0) against on (METRICS=1)',
  a: { label: 'METRICS=0', env: { METRICS: '0' } },
  b: { label: 'METRICS=1', env: { METRICS: '1' } },
  scenarios: [SCENARIOS.getById, SCENARIOS.putCreate, SCENARIOS.postUpdate],
});
