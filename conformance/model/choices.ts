/**
 * Where the spec leaves a choice open, the model accepts whatever the implementation first does, records
 * it here, and holds the implementation to it for the rest of the run.
 */
export interface Choices {
  /** A-R10: the status that comes with the success result. */
  successStatus?: number;
  /** A-R10, ERR-2: the status that comes with the failure result. */
  failureStatus?: number;
  /** A-R9: the status of GET by id of an id no user has. */
  unknownGetStatus?: number;
  /** RES-USER-5: the element wrapping the list. */
  listWrapper?: string;
  // The id range and the longest text (A-PATH-1, A-R11, RES-USER-6) are held per class of input where
  // inputs are drawn along those axes: explore/model.ts `Held.accepts` (a class accepted once and refused
  // later, or the other way round, is a disagreement).
}

export type StatusChoice = 'successStatus' | 'failureStatus' | 'unknownGetStatus';

export const noChoices = (): Choices => ({});

/**
 * The status `seen` against the choice made so far: undefined when it agrees (the choice is then
 * recorded), else the status chosen earlier.
 */
export function holdStatus(
  choices: Choices,
  choice: StatusChoice,
  seen: number,
): { choices: Choices; earlier?: number } {
  const earlier = choices[choice];
  if (earlier === undefined) return { choices: { ...choices, [choice]: seen } };
  return earlier === seen ? { choices } : { choices, earlier };
}
