// Exploration: the defects no hand-written rule names. EXP-SEQ-01 runs seeded random sequences against
// the model (explore/); EXP-CONC-01 rounds of concurrent clients whose history is checked for
// linearizability against the same model. Each is bounded by time (CONFORMANCE_EXPLORE_MS): a slow
// implementation gets fewer steps, never a failure for being slow. The seed is in the report;
// CONFORMANCE_EXPLORE_SEED=N sends the same operations again. CONFORMANCE_EXPLORE_STOP_AT_FIRST=1 ends
// a rule at its first defect (off by default: a run reports every defect its time reaches).

import { type Defect, evidenceOf } from '../explore/defect.ts';
import { type ExploreResult, explore } from '../explore/explore.ts';
import { newSeed } from '../explore/prng.ts';
import { text } from '../explore/render.ts';
import { setting } from '../support/options.mjs';
import { type RuleContext, rule, test } from '../support/rule.ts';
import { commandCwd, resolvedTarget, startFreshInstance } from '../support/target.ts';

const BUDGET_MS = Number(setting('CONFORMANCE_EXPLORE_MS'));
const CLIENTS = Number(setting('CONFORMANCE_EXPLORE_CLIENTS'));
const STOP_AT_FIRST = setting('CONFORMANCE_EXPLORE_STOP_AT_FIRST') === '1';
/** Shrinking and confirming the defects found come after the exploration's own time. */
const AFTER_MS = 150_000;

async function run(ctx: RuleContext, phase: 'sequential' | 'concurrent'): Promise<void> {
  const given = setting('CONFORMANCE_EXPLORE_SEED');
  const seed = given === undefined ? newSeed() : Number(given);
  test.setTimeout(BUDGET_MS + AFTER_MS);
  const target = resolvedTarget();
  const warn = (line: string) => test.info().annotations.push({ type: 'warning', description: line });
  const result: ExploreResult = await explore({
    seed,
    sequentialMs: phase === 'sequential' ? BUDGET_MS : 0,
    concurrentMs: phase === 'concurrent' ? BUDGET_MS : 0,
    clients: CLIENTS,
    stopAtFirst: STOP_AT_FIRST,
    targets: {
      shared: target.baseUrl,
      ...(target.noFreshReason
        ? {}
        : {
            fresh: () => startFreshInstance(warn),
            launch: { command: setting('CONFORMANCE_START_COMMAND') as string, cwd: commandCwd() },
          }),
    },
  });
  const s = result.stats;
  const first = STOP_AT_FIRST ? result.defects[0] : undefined;
  const span = first
    ? `until its first defect, seen after ${((first.foundAtMs ?? 0) / 1000).toFixed(1)} s of ${BUDGET_MS / 1000} s (CONFORMANCE_EXPLORE_STOP_AT_FIRST)`
    : `in ${BUDGET_MS / 1000} s`;
  ctx.observe(
    `seed ${seed} (CONFORMANCE_EXPLORE_SEED=${seed} sends the same operations): ${phase === 'sequential' ? `${s.sequences} sequences, ${s.steps} steps, ${s.restarts} restarts` : `${s.rounds} rounds, ${s.roundOps} operations`} ${span}${target.noFreshReason ? ', on ids of its own (no fresh instances)' : ''}`,
  );
  for (const note of result.notes) ctx.observe(note);
  for (const d of result.defects) await attach(d);
  // A SHOULD defect (a restart that lost users, a failure answered 5xx) warns: the rule passes with it.
  for (const d of result.defects.filter((d) => d.level === 'SHOULD'))
    warn(`a SHOULD defect found by exploration (seed ${seed}): ${text(d)}`);
  const must = result.defects.filter((d) => d.level === 'MUST');
  if (must.length)
    throw new Error(
      `${must.length} defect(s) found by exploration (seed ${seed}):\n\n${must.map(text).join('\n\n')}`,
    );
}

async function attach(d: Defect): Promise<void> {
  const info = test.info();
  // The report groups failing rules by these (report/defects.ts): a defect a hand-written rule met too is listed once.
  info.annotations.push({
    type: 'signature',
    description: JSON.stringify({
      ...d.signature,
      level: d.level,
      message: `${d.message} (explore seed ${d.seed}, ${d.id})`,
    }),
  });
  // The evidence goes into the suite's own report too (summary.json's defect, summary.md, index.html).
  info.annotations.push({ type: 'evidence', description: JSON.stringify(evidenceOf(d)) });
  await info.attach(`${d.id}.sh`, { body: d.script, contentType: 'text/x-shellscript' });
  if (d.svg) await info.attach(`${d.id}.svg`, { body: d.svg, contentType: 'image/svg+xml' });
  await info.attach(`${d.id}.json`, { body: JSON.stringify(d, null, 2), contentType: 'application/json' });
}

test(...rule('EXP-SEQ-01', (ctx) => run(ctx, 'sequential')));
test(...rule('EXP-CONC-01', (ctx) => run(ctx, 'concurrent')));
