// Every option of the suite, its environment variable and its default, in one place: the CLI parses and
// documents them from this table (--help), the config and the support code read their values through
// `setting()`, and the self-test checks that README.md lists the same names and defaults.
// Plain JavaScript, so that cli.mjs can read it before anything is compiled or type-stripped.

/** Where the reports of the runs go, one folder per run, unless --out names the folder. */
export const REPORT_ROOT = 'reports/conformance';

/** @type {ReadonlyArray<{flag?: string, aliases?: string[], env: string, value?: string, default?: string, help: string}>} */
export const OPTIONS = [
  {
    flag: '--base-url',
    env: 'CONFORMANCE_BASE_URL',
    value: 'URL',
    help: 'a running implementation ({base_url}); nothing is started',
  },
  {
    flag: '--start',
    env: 'CONFORMANCE_START_COMMAND',
    value: 'COMMAND',
    help: 'a shell command starting an implementation, {port} and {data} replaced by a free port and a fresh empty folder (also PORT and DATA_DIR); run from the current folder',
  },
  {
    flag: '--out',
    aliases: ['--report'],
    env: 'CONFORMANCE_REPORT_DIR',
    value: 'DIR',
    help: `the report folder of this run (default: a new folder per run under ${REPORT_ROOT}/, the last one linked as ${REPORT_ROOT}/latest)`,
  },
  {
    flag: '--name',
    env: 'CONFORMANCE_NAME',
    value: 'NAME',
    help: 'the name of the implementation in the report and in `compare` (default: the target)',
  },
  {
    flag: '--expect',
    env: 'CONFORMANCE_EXPECT_FILE',
    value: 'FILE',
    help: 'rules known to fail ({"RULE-ID": "reason", ...}): reported as expected failures, they do not fail the run',
  },
  {
    flag: '--spec-url',
    env: 'CONFORMANCE_SPEC_URL',
    value: 'URL',
    help: 'where docs/SPEC.md can be read, to link statement ids in summary.md',
  },
  {
    flag: '--reporter',
    env: 'CONFORMANCE_EXTRA_REPORTERS',
    value: 'NAME[,NAME]',
    help: "more Playwright reporters, beside the suite's own (which always run)",
  },
  // One rule at a time: rules that ran side by side on one target raced each other by accident, so an
  // implementation that loses concurrent writes failed different rules, under their names, in each run.
  // Races are exercised on purpose by the rules about them (USR-RACE-*, USR-SIZE-01).
  {
    env: 'CONFORMANCE_WORKERS',
    default: '1',
    help: 'rules run at once (`--workers N` of Playwright too); more than 1 lets rules race each other on a shared target',
  },
  {
    env: 'CONFORMANCE_START_TIMEOUT_MS',
    default: '30000',
    help: 'how long the target may take to answer: a started instance, and the --base-url at the beginning (a --base-url that refuses connections for 5 s is not waited for any longer)',
  },
  { env: 'CONFORMANCE_STOP_TIMEOUT_MS', default: '10000', help: 'how long a stop may take before SIGKILL' },
  {
    env: 'CONFORMANCE_ASYNC_TIMEOUT_MS',
    default: '20000',
    help: 'how long APP-WRK-04 waits for a deleted worker to go',
  },
  {
    env: 'CONFORMANCE_EXCHANGE_BODY_BYTES',
    default: '2000',
    help: "how many bytes of the answer's body a failed rule's exchange keeps (the request is kept whole, for curl)",
  },
  {
    env: 'CONFORMANCE_COUNTS_FILE',
    help: 'also write {"passed","failed","skipped","warnings"} there (for a CI tally)',
  },
  {
    env: 'CONFORMANCE_EXPLORE_MS',
    default: '20000',
    help: 'how long EXP-SEQ-01 explores sequences and EXP-CONC-01 concurrent rounds, each (ms); the explore command takes --time',
  },
  {
    env: 'CONFORMANCE_EXPLORE_SEED',
    help: 'the seed of the exploration rules (default: a new one, shown in the report); the same seed sends the same operations',
  },
  {
    env: 'CONFORMANCE_EXPLORE_STOP_AT_FIRST',
    default: '0',
    help: '1: each exploration rule stops at its first defect (shrunk and reported as always) instead of exploring its whole time; with a seed known to find a defect early, a run whose outcome depends on the seed, not on the time the machine takes',
  },
  {
    env: 'CONFORMANCE_EXPLORE_CLIENTS',
    default: '8',
    help: 'how many clients the concurrent rounds run at once',
  },
  {
    env: 'CONFORMANCE_ARGS',
    help: "more options, split at spaces; quote a value with spaces: --name 'my impl'",
  },
];

/** The value of an option: its environment variable (set by the CLI from the flag), else its default. */
export function setting(env) {
  const option = OPTIONS.find((o) => o.env === env);
  if (!option) throw new Error(`unknown option ${env}`);
  const value = process.env[env];
  return value !== undefined && value !== '' ? value : option.default;
}

/**
 * Splits CONFORMANCE_ARGS as a POSIX shell would split words (no expansion): white space separates,
 * '…' and "…" quote (also inside a word: --name='my impl'), a backslash escapes the next character.
 */
/**
 * The options of `playwright test` a run may take, beside the suite's own: with a value, or alone. Any
 * other option is a usage error before anything starts (a misspelt option once started the run and left
 * an empty report). Positional arguments (test file filters) pass through.
 */
export const PLAYWRIGHT_OPTIONS = {
  withValue: [
    '--grep',
    '-g',
    '--grep-invert',
    '--timeout',
    '--workers',
    '-j',
    '--repeat-each',
    '--retries',
    '--max-failures',
    '--shard',
    '--global-timeout',
    '--trace',
  ],
  alone: ['--list', '-x', '--quiet', '--forbid-only', '--pass-with-no-tests', '--fail-on-flaky-tests'],
};

export function splitArgs(text) {
  const words = [];
  let word;
  let quote;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < text.length) word = (word ?? '') + text[++i];
    else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (quote) throw new Error(`CONFORMANCE_ARGS: unmatched ${quote}`);
  if (word !== undefined) words.push(word);
  return words;
}
