/**
 * `make bench-workers` (also the last part of `make bench`): the server with WORKERS=1 against the same
 * build with WORKERS=2 (BENCH_WORKERS), on a read and a write scenario (bench/compare-servers.ts).
 * Writes reports/bench/workers.{json,md}.
 */
import { runComparison, SCENARIOS } from './compare-servers.ts';

const MANY = Number(process.env.BENCH_WORKERS || 2);

runComparison({
  name: 'workers',
  title: `WORKERS=1 against WORKERS=${MANY}`,
  a: { label: 'WORKERS=1', env: { WORKERS: '1' } },
  b: { label: `WORKERS=${MANY}`, env: { WORKERS: String(MANY) } },
  scenarios: [SCENARIOS.getById, SCENARIOS.putCreate],
});
