/**
 * The executable model of docs/SPEC.md sections A and B: pure functions, no I/O. The one place where
 * the suite's reading of each MUST statement lives; the shared steps of the rules (support/users.ts)
 * and the explorer check through it.
 *
 * - `initialState()` / `sharedState()`: a fresh service, or a shared target whose other users are unknown;
 * - `apply(state, op)`: the next state and the answers the spec allows (`Expected`);
 * - `observe(answer)`: an HTTP answer as the model reads it (`Observed`);
 * - `judge(expected, observed, choices)`: the disagreements, each with a `signature`, and the choices
 *   the implementation made where the spec is open, held for the rest of the run;
 * - `judgeBytes(where, observed)`: a result or the operations in other bytes than the spec's;
 * - `judgeWrite(before, expected, observed, answered, readBack)`: a write judged by its effect too;
 * - `observeUsers` / `adoptList` / `adopt`: go on from the state the implementation showed;
 * - `judgeRestart(before, listed)`: what a restart did not keep;
 * - `appliedLate(held, pending, later, seen, readBack, {first, holdLater})`: a write whose effect came only with the next write.
 */
export { apply, type BodyRule, type Expected, type StatusRule } from './answers.ts';
export { type Choices, noChoices } from './choices.ts';
export {
  adopt,
  adoptList,
  changeNotMade,
  judgeRestart,
  judgeWrite,
  observeUsers,
  type ReadBack,
  secondUserAdded,
  secondUserUnseen,
  shownTwice,
} from './effects.ts';
export { appPath, createdId, createdIdValue, ISO_UTC, UUID } from './formats.ts';
export {
  type Created,
  expectedOf,
  type Held,
  type HeldStep,
  heldKey,
  initialHeld,
  inputHeld,
  judgeHeld,
  learnCreated,
  NOTHING_CREATED,
  removed,
  removing,
  type StepOptions,
  stepHeld,
} from './held.ts';
export { headBody, judge, judgeBytes, OPERATIONS_BYTES, RESULT_BYTES, unreadableBody } from './judge.ts';
export { appliedLate, type Late, type LateOptions } from './late.ts';
export {
  type DefectName,
  moreThanOneSuccess,
  NAMED_DEFECTS,
  named,
  serverErrorUnderConcurrency,
} from './named-defects.ts';
export {
  type Answer,
  is2xx,
  type Observed,
  observe,
  observed,
  type RawAnswer,
  type SeenBody,
  type SeenUser,
  servedOrNone,
  servedUser,
  servedUsers,
  validUtf8,
} from './observe.ts';
export { type Operation, type OperationKind, requestLine, type UserForm, WRITES } from './operations.ts';
export {
  type Liar,
  lieOf,
  listShows,
  listShowsTruly,
  lyingReaders,
  type Reader,
  type ReaderAnswers,
  type ReaderDefect,
  type ReadsBetween,
  SHOWN_STATE,
  shownTogether,
  throughBothLiars,
} from './readers.ts';
export { type Aspect, type Disagreement, disagreement, type Signature, signatureKey } from './signature.ts';
export {
  canonicalId,
  DEFAULT_USER_ID,
  type Domain,
  initialState,
  type ModelUser,
  type State,
  sharedState,
  type Worker,
  withUser,
} from './state.ts';
export { explainedByAnotherRecord, othersTouched, outsideTouched, touchedFirst } from './touched.ts';
export { incompleteUser, sameUser, showUser } from './users.ts';
