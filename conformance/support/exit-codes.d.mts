export declare const EXIT: Readonly<{
  conforms: 0;
  doesNotConform: 1;
  usage: 2;
  couldNotRun: 3;
}>;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
export declare function exitCodeOf(
  summary: { errors: readonly string[]; counts: { failed: number } } | undefined,
): ExitCode;
