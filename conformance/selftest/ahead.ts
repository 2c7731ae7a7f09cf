/**
 * Runs started ahead of the cases that read them. A self-test case that runs the suite spends most of
 * its time waiting on its implementation (the machine's load stays near 1 on 2 cores when they run one
 * after another), so the runs of the cases coming next start while the current one runs, JOBS at a
 * time, and each case awaits its own. One queue for the whole mocha process: cases are taken in the
 * order they were declared, which is the order mocha runs them, across files too.
 *
 * - JOBS: `SELFTEST_JOBS` (default 3), never more runs at once than that, except the runs declared as
 *   waiting (`waits`: the hostile implementations, whose runs sit for minutes on a stalled or closed
 *   socket and use next to no CPU): they take no slot, and all start before the first case.
 * - The first runs start before the first case of the process, so that the cases before them which run
 *   the suite themselves run beside them.
 * - With `--grep` (or `--fgrep`) on mocha's command line, nothing starts ahead: a run started for a
 *   case the grep leaves out would be wasted, and a single case is what such a run is for.
 */

const grepping = process.argv.some((arg) => /^(-g|-f|--grep|--fgrep)(=|$)/.test(arg));

export const JOBS = Math.max(1, Number(process.env.SELFTEST_JOBS ?? 3) || 1);
const AHEAD = grepping ? 1 : JOBS;

interface Declared {
  key: string;
  start: () => Promise<unknown>;
  /** The run mostly waits on its implementation: it takes no slot. */
  waits: boolean;
  result?: Promise<unknown>;
}

const declared: Declared[] = [];
const byKey = new Map<string, Declared>();
let running = 0;
const waiting: Array<() => void> = [];

async function slot<T>(work: () => Promise<T>): Promise<T> {
  // A run that ends hands its slot to the next waiting one, so no new run can take it in between.
  if (running >= JOBS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function begin(entry: Declared): Promise<unknown> {
  if (!entry.result) {
    entry.result = entry.waits ? entry.start() : slot(entry.start);
    // Awaited by its case later; until then a failure must not count as an unhandled rejection.
    entry.result.catch(() => undefined);
  }
  return entry.result;
}

/**
 * Before the first case of the process, the first runs start: the cases before them that run the suite
 * themselves (the explorer's, the CI's) then run beside them. Nothing starts ahead with --grep.
 */
before(() => {
  if (grepping) return;
  for (const entry of declared.filter((d) => d.waits)) begin(entry);
  for (const entry of declared.filter((d) => !d.waits).slice(0, JOBS)) begin(entry);
});

/** Declares the run of a case, in the order of the cases; `key` names it (the case's title will do). */
export function declareRun<T>(key: string, start: () => Promise<T>, waits = false): void {
  if (byKey.has(key)) throw new Error(`a run named ${key} is declared twice`);
  const entry: Declared = { key, start, waits };
  declared.push(entry);
  byKey.set(key, entry);
}

/** The run of `key`: started now if it was not yet, and the runs declared next start behind it. */
export function takeRun<T>(key: string): Promise<T> {
  const entry = byKey.get(key);
  if (!entry) throw new Error(`no run named ${key} was declared`);
  const at = declared.indexOf(entry);
  const own = begin(entry);
  for (const next of declared.slice(at + 1, at + AHEAD)) begin(next);
  return own as Promise<T>;
}

/**
 * A mocha case whose run starts ahead of it: `start` runs the suite, `check` judges the run. The timeout
 * only bounds a hang (the run waits behind at most JOBS others, each bounded by the suite's own timeouts).
 */
export function caseOf<T>(
  title: string,
  start: () => Promise<T>,
  check: (run: T) => void,
  timeoutMs = 900_000,
  waits = false,
): void {
  declareRun(title, start, waits);
  it(title, async () => check(await takeRun<T>(title))).timeout(timeoutMs);
}
