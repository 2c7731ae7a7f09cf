/**
 * `make bench-metrics` (also part of `make bench`): what the Prometheus metrics cost. The same build
 * with METRICS=0 (A) against METRICS=1 (B, as shipped), single-request scenarios, alternating A/B/B/A
 * (bench/compare-servers.ts); the issue allows metrics to cost at most 3 % of req/s. Nothing scrapes
 * /metrics during the runs: what is measured is the counting on every request.
 * Writes reports/bench/metrics.{json,md}.
 */
import { runComparison, SCENARIOS } from './compare-servers.ts';

runComparison({
  name: 'metrics',
  title: 'metrics off (METRICS=0) against on (METRICS=1)',
  a: { label: 'METRICS=0', env: { METRICS: '0' } },
  b: { label: 'METRICS=1', env: { METRICS: '1' } },
  scenarios: [SCENARIOS.getById, SCENARIOS.putCreate, SCENARIOS.postUpdate],
});
