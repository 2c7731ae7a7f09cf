/** A deliberate defect of impl/server.mjs and the rules that must catch it (see defects.mjs). */
export interface Defect {
  /** What is wrong with the implementation. */
  wrong: string;
  /** The rules that must report it: status `failed`, or `reported` when given. */
  caughtBy: readonly string[];
  reported?: 'could not set up';
  /** No rule but those of `caughtBy` fails. */
  only?: true;
  /** The suite's environment for the run. */
  env?: Readonly<Record<string, string>>;
}
export declare const DEFECTS: Readonly<Record<string, Defect>>;
