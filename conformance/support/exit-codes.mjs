// The exit codes of the CLI (and `exitCode` of runConformance), written once. Plain JavaScript, so that
// cli.mjs can read it before anything is compiled or type-stripped.

export const EXIT = Object.freeze({
  /** Every selected MUST rule passed, or failed as --expect lists (the verdict may still say incomplete). */
  conforms: 0,
  /** A MUST rule failed that --expect does not list. */
  doesNotConform: 1,
  /** The command line is wrong: an unknown subcommand, an option without its value, no target. */
  usage: 2,
  /** No verdict: the target never answered, or the run broke or stopped before every selected rule ran. */
  couldNotRun: 3,
});

/** The exit code of a run from its summary.json (undefined: the run wrote none). */
export function exitCodeOf(summary) {
  if (!summary || summary.errors.length > 0) return EXIT.couldNotRun;
  return summary.counts.failed > 0 ? EXIT.doesNotConform : EXIT.conforms;
}
