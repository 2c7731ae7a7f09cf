/**
 * The rules' concurrent writes judged through the model: the outcome of each write of a race, users
 * created at once and missing from the list, a race of writes on one id that the same write sent alone
 * explains (or not), and section B changes sent at once, explained by the best order (model/order.ts,
 * as the explorer's race rounds).
 */

import {
  canonicalId,
  type Disagreement,
  disagreement,
  moreThanOneSuccess,
  named,
  type Observed,
  type Operation,
  serverErrorUnderConcurrency,
  showUser,
} from '../model/index.ts';
import { bestExplanation } from '../model/order.ts';
import { type Api, type Reply, show } from './http.ts';
import { corruption, listFailsForGood, modelOf, observed } from './judged.ts';
import { type AppOp, judgeAppAnswer } from './judged-apps.ts';
import { step } from './judged-users.ts';
import { lying } from './liars.ts';
import { observeUser } from './read-back.ts';

/** How many times each outcome (or status) came. */
export function tally(outcomes: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  return counts;
}

/**
 * The result word of a write the rule sent itself (races, bulk creates), with the meaning this
 * implementation gives it: a word outside the spec's two is a finding of the rule, and is read as
 * what the rule's earlier steps showed it means; else `unreadable (status)`. A server error is judged
 * with the others sent at once (judgeServerErrors).
 */
export function outcome(api: Api, reply: Reply): string {
  const seen = observed(reply);
  if (seen.body.kind !== 'result') return `unreadable (${reply.status})`;
  const word = seen.body.word;
  if (word === 'success' || word === 'failure') return word;
  const model = modelOf(api.log);
  model.add(
    [
      disagreement(
        'write',
        'result-word',
        word,
        `${reply.method} answers \`<result>${word}</result>\`; the spec's words are success and failure`,
      ),
    ],
    reply,
  );
  return model.meaning(word) ?? `unreadable (${reply.status})`;
}

/**
 * Writes sent at once: a server error among their answers is one finding, named by what reads of the
 * list then show (model/named-defects.ts serverErrorUnderConcurrency, as the explorer names it): a
 * server error under concurrent writes, or a service failing for good when every read fails.
 */
export async function judgeServerErrors(api: Api, replies: ReadonlyArray<Reply | undefined>): Promise<void> {
  const first = replies.find((r) => r !== undefined && r.status >= 500);
  if (!first) return;
  const failing = await listFailsForGood(api);
  modelOf(api.log).add([serverErrorUnderConcurrency(show(first), failing)], first);
}

/**
 * Users a rule created with concurrent PUTs answered success, and the list shows: each one the list
 * misses is read by id. Served by id: the list leaves it out; not served, and stored when sent alone:
 * the write was lost.
 */
export async function judgeBulk(
  api: Api,
  created: ReadonlyArray<{ id: number | string; name: string; profession: string }>,
  listedIds: ReadonlySet<string>,
): Promise<void> {
  const model = modelOf(api.log);
  const missing = created.filter((u) => !listedIds.has(canonicalId(u.id) ?? String(u.id)));
  for (const user of missing.slice(0, 5)) {
    const reply = await api.get(`/UserService/users/${user.id}`);
    const seen = observed(reply);
    if (reply.status >= 500) {
      const broken = await corruption(api);
      if (broken) return model.add([broken], reply);
    }
    const served = reply.status >= 200 && reply.status <= 299 && seen.body.kind === 'user';
    // Not stored: the same PUT is sent once more, alone. When it is not stored either, the defect is the
    // write's own, named by that step (a PUT that never stores is no lost update); else it was lost.
    if (!served && (await step(api, { kind: 'put', user })).found.length) return;
    // A list known to leave users out (support/readers.ts): that is its lie, named once by the check.
    const liar = served ? lying('GET list') : undefined;
    if (liar) {
      model.unjudged ??= liar;
      return;
    }
    model.add(
      [
        served
          ? disagreement(
              'GET list',
              'state-change',
              'user missing',
              `GET list leaves out ${showUser(seen.body.kind === 'user' ? seen.body.user : undefined)}, which GET by id serves (${missing.length} of ${created.length} users created missing)`,
            )
          : named(
              'lostUpdate',
              `of ${created.length} concurrent PUTs of distinct ids answered success, ${missing.length} are not stored (user ${user.id} among them): lost updates`,
            ),
      ],
      reply,
    );
    return;
  }
}

/**
 * After a race of writes on one id whose answers the spec does not allow (more than one success): the
 * same write is sent once more, alone. When that disagrees too, the defect is the write's, named by
 * that step; else it shows under concurrency only, and is named as a race.
 */
export async function judgeRace(
  api: Api,
  op: Extract<Operation, { kind: 'put' | 'delete' }>,
  what: string,
): Promise<void> {
  const model = modelOf(api.log);
  const reply = await observeUser(api, op.kind === 'put' ? op.user.id : op.id);
  const unjudged = model.unjudged;
  const alone = await step(api, op);
  // Sent alone it is not judged either (a reader lies where it would show): not a race.
  if (alone.found.length || model.unjudged !== unjudged) return;
  model.add(
    [
      moreThanOneSuccess(
        op.kind === 'put' ? 'PUT' : 'DELETE',
        `${what}; the same ${op.kind.toUpperCase()} sent alone is answered as the spec says: a check and a change that concurrent requests interleave`,
      ),
    ],
    reply,
  );
}

/**
 * Section B changes sent at once: some order of them must explain every answer, and the reads sent
 * after them (`after`, in order), by the model (real-time order is not imposed, which can only accept
 * more), as the explorer's race rounds judge them. Answers alike (same operation, status, media type
 * and body) are interchangeable, so the orders are searched over kinds of answers, not permutations
 * of twenty. When no order explains them, the finding is the first disagreement of the order that
 * explains them best (model/order.ts bestExplanation, as the explorer's race rounds take it). The rule
 * then goes on from the state of that order.
 */
export function judgeAppRace(
  api: Api,
  changes: ReadonlyArray<{ op: AppOp; reply: Reply }>,
  after: ReadonlyArray<{ op: AppOp; reply: Reply }> = [],
): Disagreement[] {
  const model = modelOf(api.log);
  type Answered = { op: AppOp; reply: Reply; seen: Observed };
  const read = (a: { op: AppOp; reply: Reply }): Answered => ({ ...a, seen: observed(a.reply) });
  const answered = changes.map(read);
  const reads = after.map(read);
  const result = bestExplanation(
    model.held(api.baseUrl),
    answered,
    reads,
    (held, a) => {
      const judged = judgeAppAnswer(held, a.op, a.seen);
      const [found] = judged.found;
      return { state: judged.held, ...(found ? { found } : {}) };
    },
    {
      same: (a) => JSON.stringify([a.op, a.reply.status, a.reply.headers['content-type'], a.reply.text]),
      state: (held) => JSON.stringify(held.state.apps),
    },
  );
  model.keep(api.baseUrl, result.state);
  if (!result.first) return [];
  const { found, index } = result.first;
  model.add([found], ([...answered, ...reads][index] as Answered).reply);
  return [found];
}
