import { DEFAULTS } from '../defaults.ts';
import { ServiceUnavailableError } from '../errors.ts';
import type { ContentionObserver } from '../metrics/service-metrics.ts';

/** What an optimistic attempt returns when another writer changed the record first: nothing was applied. */
export const CONFLICT = Symbol('conflict');
export type Attempt<T> = () => Promise<T | typeof CONFLICT>;

export interface RetryPolicy {
  /** No attempt starts later than this after the first one; then the caller gets a 503. */
  budgetMs: number;
  /** Upper bound of the first pause; it doubles per conflict up to `maxPauseMs`. */
  firstPauseMs: number;
  maxPauseMs: number;
}

/**
 * Inside one process, writers of a record take turns (keyed-queue.ts), so conflicts come from other
 * processes only. The pauses are random in [0, bound) with the bound doubling per conflict (exponential
 * backoff with full jitter): writers of several processes spread out quickly instead of colliding in
 * step, and the total time stays bounded by the budget.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  budgetMs: DEFAULTS.conflictRetryBudgetMs,
  firstPauseMs: 2,
  maxPauseMs: 64,
};

/**
 * Runs `attempt` until it returns something other than CONFLICT. Gives up with a 503 (answered with
 * `Retry-After`) only when the budget is spent, and only ever right after an attempt that reported a
 * conflict, i.e. that applied nothing: an attempt that throws (Redis unreachable, or a reply lost after
 * sending: 504 outcome_unknown) is not retried. `observer` is told of every conflict, retry and give-up.
 */
export async function retryOnConflict<T>(
  attempt: Attempt<T>,
  what: string,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  observer?: ContentionObserver,
): Promise<T> {
  const deadline = Date.now() + policy.budgetMs;
  for (let conflicts = 0; ; conflicts++) {
    const outcome = await attempt();
    if (outcome !== CONFLICT) return outcome;
    observer?.conflict(what);
    const bound = Math.min(policy.maxPauseMs, policy.firstPauseMs * 2 ** conflicts);
    const pause = Math.random() * bound;
    if (Date.now() + pause > deadline) {
      observer?.gaveUp(what);
      throw new ServiceUnavailableError(`the ${what} is being changed concurrently; try again`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    observer?.retry(what);
  }
}
