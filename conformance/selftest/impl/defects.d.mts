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
  /** What the whole suite (its hand-written rules) reports for it alone: it then joins the pairs and triples of single causes. */
  whole?: readonly string[];
}
export declare const DEFECTS: Readonly<Record<string, Defect>>;

/** A compound implementation (issue 32): several behaviours at once, and the defects the report must list. */
export interface Compound {
  wrong: string;
  /** Behaviours of server.mjs switched on together. */
  behaviours: readonly string[];
  /**
   * The defects, by signature (`operation | aspect | seen`, model/signature.ts signatureKey); a group is
   * one outcome that timing decides: at least one of its signatures, any of them.
   */
  defects: ReadonlyArray<string | readonly string[]>;
  /** Options of the suite for the run (beyond the defaults). */
  args?: readonly string[];
}
export declare const COMPOUNDS: Readonly<Record<string, Compound>>;

/** An implementation written elsewhere (impl/python/): its file under impl/, and the defects the report must list. */
export interface Outsider {
  file: string;
  wrong: string;
  defects: readonly string[];
}
export declare const OUTSIDERS: Readonly<Record<string, Outsider>>;

/** The cases of the quick tier (`make test`): one of each kind, by name (a defect, a compound or an outsider). */
export declare const QUICK: ReadonlySet<string>;

/** A single cause (issue 45): one behaviour of server.mjs, and the defects the whole suite must list for it. */
export interface Single {
  wrong: string;
  /** The rule that reports it: when that rule could not check for another defect, it is masked. */
  caughtBy?: readonly string[];
  defects: readonly string[];
}
export declare const SINGLES: Readonly<Record<string, Single>>;

/** Single causes not yet reported as the union of their reports together (see defects.mjs). */
export declare const NOT_YET_UNION: ReadonlyArray<readonly string[]>;

/** [hider, hidden]: the first cause hides the second wherever the suite could look (see defects.mjs). */
export declare const MASKS: ReadonlyArray<readonly [string, string]>;
/** Switches of server.mjs that change the same step: never on together (see defects.mjs). */
export declare const EXCLUSIVE: ReadonlyArray<readonly string[]>;
/** Declared defects as a report would list them: a group stands for its signatures listed (see defects.mjs). */
export declare function declaredAsListed(
  declared: ReadonlyArray<string | readonly string[]>,
  listed: readonly string[],
): string[];
