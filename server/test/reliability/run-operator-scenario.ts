/**
 * Issue 23's operator scenarios, by hand (see support/operator-scenarios.ts):
 *   node --import tsx server/test/reliability/run-operator-scenario.ts stall   # STALLS=10 STALL_MS=3000 GAP_MS=2000 SETTLE_MS=5000
 *   node --import tsx server/test/reliability/run-operator-scenario.ts oom
 * Prints the figures as JSON.
 */
import { runOomScenario, runStallScenario } from './support/operator-scenarios.ts';

const which = process.argv[2] ?? 'stall';
const num = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const figures =
  which === 'oom'
    ? await runOomScenario()
    : await runStallScenario({
        ...(num('STALLS') !== undefined ? { stalls: num('STALLS') } : {}),
        ...(num('STALL_MS') !== undefined ? { stallMs: num('STALL_MS') } : {}),
        ...(num('GAP_MS') !== undefined ? { gapMs: num('GAP_MS') } : {}),
        ...(num('SETTLE_MS') !== undefined ? { settleMs: num('SETTLE_MS') } : {}),
      });
console.log(JSON.stringify(figures, null, 2));
process.exit(0);
