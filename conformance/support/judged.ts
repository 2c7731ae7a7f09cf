/**
 * The rules' judging, the part every subject shares: what one rule learnt (RuleModel: its findings, each
 * signature once, and what the model holds of each target), an answer read as the model's observation,
 * and the defects any rule may meet (an answer in another representation, a service whose state broke).
 * The rules' steps by subject call it: support/judged-users.ts (section A, with read-backs),
 * support/judged-races.ts (concurrent writes), support/judged-apps.ts (section B). The judging itself is
 * the model's (model/held.ts stepHeld, model/order.ts, model/findings.ts), shared with the explorer.
 */

import { firstSightings } from '../model/findings.ts';
import {
  type Answer,
  type Disagreement,
  disagreement,
  type Held,
  initialState,
  type Liar,
  named,
  type Observed,
  type Operation,
  observe,
  observed as observedAnswer,
  type SeenUser,
  type State,
  sharedState,
  unreadableBody,
  validUtf8,
} from '../model/index.ts';
import type { Exchange } from './exchange.ts';
import { failsForGood } from './for-good.ts';
import { type Api, type ExchangeLog, type Reply, show } from './http.ts';

/** A disagreement met by a rule, with the answer it was met in: as show() writes it, and its exchange (for the report). */
export interface Finding extends Disagreement {
  shown: string;
  exchange: Exchange | undefined;
}

/** What one rule learnt: its findings (each signature once), the choices held, the model state per target. */
export class RuleModel {
  readonly findings: Finding[] = [];
  private readonly keys = new Set<string>();
  /** The choices held per situation (model/held.ts Held.choices), for every target of the rule. */
  choices: Held['choices'] = {};
  /** What a result word outside the spec's two means for this implementation (learnt from its effect). */
  readonly words = new Map<string, 'success' | 'failure'>();
  /**
   * A write the rule could not judge (support/judged-users.ts step): the reader that lies keeps it
   * from telling which user the write changed. Without another finding, the rule could not check.
   */
  unjudged: Liar | undefined;

  /** What a result word means here: the spec's two as they are, another as learnt (undefined if not yet). */
  meaning(word: string): 'success' | 'failure' | undefined {
    return word === 'success' || word === 'failure' ? word : this.words.get(word);
  }
  /**
   * A write answered success whose effect the reads showed missing, held until the next write shows
   * whether it came with it (model/late.ts appliedLate): the write and its answer, and the first user
   * of the list when it was sent (a DELETE made on it instead of its own; undefined: not known);
   * `chained`: held after writes made late (model/late.ts heldAgain), so the next may be held too.
   */
  pending: { op: Operation; reply: Reply; first?: SeenUser | undefined; chained?: true } | undefined;
  /** The users of fresh ids the model wrote to see a write made late (judged-users.ts probeLate): removed after the rule. */
  readonly probes: Array<{ api: Api; id: number }> = [];
  private readonly states = new Map<string, State>();
  private readonly fresh = new Set<string>();

  add(found: readonly Disagreement[], reply: Reply): void {
    for (const d of firstSightings(this.keys, found))
      this.findings.push({ ...d, shown: show(reply), exchange: reply.exchange });
  }

  markFresh(baseUrl: string): void {
    this.fresh.add(baseUrl);
  }

  state(baseUrl: string): State {
    return this.states.get(baseUrl) ?? (this.fresh.has(baseUrl) ? initialState() : sharedState());
  }

  setState(baseUrl: string, state: State): void {
    this.states.set(baseUrl, state);
  }

  /** What the model holds of the target (model/held.ts): its state and the rule's choices. */
  held(baseUrl: string): Held {
    return { state: this.state(baseUrl), choices: this.choices, accepts: {} };
  }

  /** Goes on from `held` on the target. */
  keep(baseUrl: string, held: Held): void {
    this.choices = held.choices;
    this.setState(baseUrl, held.state);
  }
}

const models = new WeakMap<ExchangeLog, RuleModel>();

/** The model of the rule an Api belongs to (every Api of a rule shares its exchange log). */
export function modelOf(log: ExchangeLog): RuleModel {
  let found = models.get(log);
  if (!found) {
    found = new RuleModel();
    models.set(log, found);
  }
  return found;
}

/** A reply as the suite's clients record an answer (model/observe.ts Answer). */
export const answerOf = (reply: Reply): Answer => ({
  status: reply.status,
  contentType: reply.headers['content-type'],
  body: reply.text,
  ...(validUtf8(reply.body) ? {} : { notUtf8: true as const }),
});

/** A reply as the model reads it (model/observe.ts observed, as the explorer reads its answers). */
export const observed = (reply: Reply): Observed => observedAnswer(answerOf(reply));

/** An XML answer the model cannot read: one defect of the representation, whichever read meets it. */
export const unreadable = (method: string, problem: string): Disagreement => unreadableBody(method, problem);

export const usersIn = (o: Observed): SeenUser[] =>
  o.body.kind === 'users' ? o.body.users : o.body.kind === 'user' ? [o.body.user] : [];

/**
 * A rule that failed on an assertion of its own, the model having found nothing: when the answer that
 * decided it is a section A answer in another representation than XML, that is the defect.
 */
export function representationOf(exchange: Exchange | undefined): Disagreement | undefined {
  if (!exchange?.request.url.includes('/UserService/') || !exchange.response.body.trim()) return undefined;
  const type = exchange.response.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (exchange.response.status >= 500) return undefined;
  if (type === 'application/xml') {
    const seen = observe({
      status: exchange.response.status,
      headers: exchange.response.headers,
      text: exchange.response.body,
    });
    return seen.body.kind === 'unreadable' && !exchange.response.truncated
      ? unreadable(exchange.request.method, seen.body.problem)
      : undefined;
  }
  return disagreement(
    'XML answer',
    'media-type',
    type ?? 'no Content-Type',
    `${exchange.request.method} answered \`${type ?? 'no Content-Type'}\`; the spec requires XML (\`application/xml\`)`,
  );
}

/**
 * What every read of the list answered when, spread over a few seconds, all of them failed (no answer or
 * a server error): the service broken for good; undefined when one is served (support/for-good.ts).
 */
export function listFailsForGood(api: Api): Promise<string | undefined> {
  return failsForGood(async () => {
    try {
      const reply = await api.get('/UserService/users');
      return reply.status >= 500 ? show(reply) : undefined;
    } catch (err) {
      return `GET /UserService/users: ${(err as Error).message.split('\n')[0]}`;
    }
  });
}

/**
 * After a server error: when every read of the list fails too, over a few seconds, the service is
 * broken as a whole (its state corrupted), which is one defect, not one per rule that meets it. Returns
 * the finding, or undefined.
 */
export async function corruption(api: Api): Promise<Disagreement | undefined> {
  const failing = await listFailsForGood(api);
  return failing === undefined
    ? undefined
    : named(
        'corrupted',
        `the service answers server errors to every request (its state corrupted): ${failing}`,
      );
}
