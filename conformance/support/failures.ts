/**
 * What a rule can end on besides a plain assertion, each carrying what the report needs:
 *
 * - ExchangeFailure: one answer disagreed with the spec; it carries that exchange, so the report shows
 *   the one that disagreed (not the last one sent). `expectOn` and `failOn` (support/http.ts) throw it.
 * - CouldNotFinish: the rule stopped before it could check what it checks, for want of time or of an
 *   implementation to ask (no answer within the bound, a body that never ended, the implementation
 *   exited): reported "could not finish", like "could not set up", never as a failure. OutOfTimeError is
 *   the rule's own time running out (USR-SIZE-01's creates).
 * - RuleSkipped: the rule cannot apply to this target (no fresh instance to be had, a fixture the
 *   implementation refused); the runner cleans up, then skips the test with the reason.
 */
import type { Exchange } from './exchange.ts';

export class ExchangeFailure extends Error {
  // Reads in a report as any failure does (`Error: …`); what tells it apart is the exchange it carries.
  override name = 'Error';
  readonly exchange: Exchange | undefined;
  constructor(message: string, exchange: Exchange | undefined) {
    super(message);
    this.exchange = exchange;
  }
}

export class CouldNotFinish extends Error {
  override name = 'CouldNotFinish';
}

export class OutOfTimeError extends CouldNotFinish {
  override name = 'OutOfTimeError';
}

export class RuleSkipped extends Error {
  override name = 'RuleSkipped';
}

/** The exchange an error says decided it, if it carries one. */
export const carriedExchange = (err: unknown): Exchange | undefined =>
  (err as { exchange?: Exchange } | undefined)?.exchange;
