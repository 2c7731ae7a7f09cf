/**
 * `make bench-processes` (also the last part of `make bench`): the server with PROCESSES=1 against the
 * same build with PROCESSES=2 (BENCH_PROCESSES), on a read and a write scenario (bench/compare-servers.ts).
 * Writes reports/bench/processes.{json,md}.
 */
import { runComparison, SCENARIOS } from './compare-servers.ts';

const MANY = Number(process.env.BENCH_PROCESSES || 2);

runComparison({
  name: 'processes',
  title: `PROCESSES=1 against PROCESSES=${MANY}`,
  a: { label: 'PROCESSES=1', env: { PROCESSES: '1' } },
  b: { label: `PROCESSES=${MANY}`, env: { PROCESSES: String(MANY) } },
  scenarios: [SCENARIOS.getById, SCENARIOS.putCreate],
});
