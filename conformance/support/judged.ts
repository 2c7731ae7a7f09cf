/**
 * The rules' section A steps, judged through the executable model (model/): every write is sent, its
 * answer judged, and the state read back (GET by id and the list) judged as well. What disagrees with
 * the model is recorded as a finding of the rule, with its signature; the rule goes on from the state it
 * observed, and fails at its end (support/rule.ts) naming the cause: one wrong word no longer stops
 * the rule before it checks what it is about.
 */

import { firstSightings } from '../model/findings.ts';
import {
  type Answer,
  adoptList,
  apply,
  appPath,
  canonicalId,
  createdId,
  type Disagreement,
  disagreement,
  type Held,
  initialState,
  judgeRestart,
  judgeWrite,
  moreThanOneSuccess,
  named,
  type Observed,
  type Operation,
  observe,
  observed as observedAnswer,
  observeUsers,
  POLL_MS,
  type ReadBack,
  removed,
  removing,
  type SeenUser,
  type State,
  sameUser,
  sharedState,
  showUser,
  stepHeld,
  unreadableBody,
  validUtf8,
} from '../model/index.ts';
import { bestExplanation } from '../model/order.ts';
import type { Exchange } from './exchange.ts';
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

function send(api: Api, op: Operation, form?: string): Promise<Reply> {
  // A form written by the rule itself (its encoding is what the rule checks); the model reads `op.user`.
  if (form !== undefined && (op.kind === 'put' || op.kind === 'post'))
    return api.form(op.kind === 'put' ? 'PUT' : 'POST', '/UserService/users', form);
  switch (op.kind) {
    case 'list':
      return api.get('/UserService/users');
    case 'head-list':
      return api.send('HEAD', '/UserService/users');
    case 'options':
      return api.send('OPTIONS', '/UserService/users');
    case 'get':
      return api.get(`/UserService/users/${op.id}`);
    case 'put':
    case 'post': {
      const { id, name, profession } = op.user;
      if (name !== undefined && profession !== undefined)
        return op.kind === 'put' ? api.put({ id, name, profession }) : api.post({ id, name, profession });
      // A form without a field (A-R11): the fields it has.
      const fields = Object.fromEntries(Object.entries(op.user).filter(([, v]) => v !== undefined));
      return api.form(op.kind === 'put' ? 'PUT' : 'POST', '/UserService/users', fields);
    }
    case 'delete':
      return api.del(op.id);
    default:
      throw new Error(`${op.kind} is not a step of the section A rules`);
  }
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

const usersIn = (o: Observed): SeenUser[] =>
  o.body.kind === 'users' ? o.body.users : o.body.kind === 'user' ? [o.body.user] : [];

/**
 * Reads back the users `ids` by GET by id and through the list. Where the two disagree, GET by id is
 * taken for the user, and the list's omission is a finding of its own.
 */
async function readBack(
  api: Api,
  model: RuleModel,
  ids: readonly string[],
): Promise<{ back: ReadBack; listed?: SeenUser[] }> {
  const out: Record<string, SeenUser | null> = {};
  const byId: Record<string, SeenUser | null> = {};
  for (const id of ids) {
    const reply = await api.get(`/UserService/users/${id}`);
    const seen = observed(reply);
    // Unreadable: the read is the defect, and the write's effect on this user cannot be judged.
    if (reply.status >= 200 && reply.status <= 299 && seen.body.kind === 'unreadable') {
      model.add([unreadable('GET by id', seen.body.problem)], reply);
      continue;
    }
    const user =
      reply.status >= 200 && reply.status <= 299 && seen.body.kind === 'user' ? seen.body.user : undefined;
    byId[id] = user && user.id === id ? user : null;
  }
  const list = await api.get('/UserService/users');
  const listedSeen = observed(list);
  const listed = usersIn(listedSeen);
  const readable = list.status >= 200 && list.status <= 299 && listedSeen.body.kind === 'users';
  if (list.status >= 200 && list.status <= 299 && listedSeen.body.kind === 'unreadable')
    model.add([unreadable('GET list', listedSeen.body.problem)], list);
  for (const id of ids) {
    if (!(id in byId)) continue;
    const inList = listed.filter((u) => u.id === id);
    const got = byId[id] ?? null;
    out[id] = got;
    if (!readable) continue;
    if (
      got &&
      (inList.length !== 1 || !sameUser({ id, name: got.name, profession: got.profession }, inList[0]))
    )
      model.add(
        [
          disagreement(
            'GET list',
            'state-change',
            inList.length > 1 ? 'user repeated' : 'user missing',
            `GET list does not show ${showUser(got)} as GET by id serves it (${inList.length} user elements with that id)`,
          ),
        ],
        list,
      );
    if (!got && inList.length)
      model.add(
        [
          disagreement(
            'GET by id',
            'state-change',
            'user missing',
            `GET by id does not serve ${showUser(inList[0])}, which the list shows`,
          ),
        ],
        list,
      );
  }
  // The other users the model knows: the list tells whether the write touched them.
  if (readable) {
    const state = model.state(api.baseUrl);
    for (const id of Object.keys(state.users)) {
      if (ids.includes(id)) continue;
      const found = listed.filter((u) => u.id === id);
      if (found.length === 1) out[id] = found[0] as SeenUser;
      else {
        // Missing from the list: GET by id tells a list that leaves it out from a user that is gone.
        const reply = await api.get(`/UserService/users/${id}`);
        const seen = observed(reply);
        out[id] =
          reply.status >= 200 && reply.status <= 299 && seen.body.kind === 'user' ? seen.body.user : null;
      }
    }
  }
  return readable ? { back: out, listed } : { back: out };
}

export interface Step {
  reply: Reply;
  observed: Observed;
  /** The result word, when the answer had one (in whatever representation). */
  word?: string;
  /** What reads showed afterwards (writes). */
  readBack?: ReadBack;
  /** The findings of this step. */
  found: Disagreement[];
}

/**
 * Sends one section A operation, judges the answer and, for a write, the state read back afterwards;
 * records what disagrees; goes on from the state observed.
 */
export async function step(api: Api, op: Operation, options: { form?: string } = {}): Promise<Step> {
  const model = modelOf(api.log);
  const held = model.held(api.baseUrl);
  const before = held.state;
  // POST and DELETE: the list before, to tell a write that hit another user from one that did nothing.
  const snapshot = op.kind === 'post' || op.kind === 'delete' ? await listSnapshot(api) : undefined;
  const reply = await send(api, op, options.form);
  const seen = observed(reply);
  if (reply.status >= 500) {
    const broken = await corruption(api);
    if (broken) {
      model.add([broken], reply);
      return { reply, observed: seen, found: [broken] };
    }
  }
  const judged = stepHeld(held, op, seen);
  const { expected } = judged;
  const next = judged.held.state;
  model.choices = judged.held.choices;
  const word = seen.body.kind === 'result' ? seen.body.word : undefined;
  if (!expected.touches.length || op.kind === 'get') {
    model.add(judged.disagreements, reply);
    const readable =
      op.kind === 'list' && reply.status >= 200 && reply.status <= 299 && seen.body.kind === 'users';
    model.setState(api.baseUrl, readable ? adoptList(next, usersIn(seen)) : next);
    return { reply, observed: seen, ...(word === undefined ? {} : { word }), found: judged.disagreements };
  }
  const { back, listed } = await readBack(api, model, expected.touches);
  let found = judgeWrite(before, expected, seen, judged.disagreements, back);
  const touched = snapshot && listed ? othersTouched(snapshot, listed, op, before) : [];
  if (touched.length && found.some(explainedByAnotherRecord)) {
    found = [
      ...found.filter((d) => !explainedByAnotherRecord(d)),
      named(
        'otherRecordTouched',
        `${expected.situation} ${word === undefined ? `answered ${reply.status}` : `answered ${word}`}, and changed another user instead: ${touched.join(', ')}`,
      ),
    ];
  } else found = await confirmLost(api, model, before, op, found, back);
  // A word outside the spec's two, on a write whose change is as the model expects: it means that word.
  if (
    word !== undefined &&
    word !== 'success' &&
    word !== 'failure' &&
    expected.body.kind === 'result' &&
    !found.some((d) => d.signature.aspect !== 'result-word' && d.signature.aspect !== 'media-type')
  )
    model.words.set(word, expected.body.word);
  model.add(found, reply);
  model.setState(api.baseUrl, observeUsers(next, back));
  return { reply, observed: seen, ...(word === undefined ? {} : { word }), readBack: back, found };
}

/**
 * A write that answered success and whose change is missing is sent once more: when the change then
 * holds, it was lost to a concurrent write (a lost update), not a write that never works.
 */
async function confirmLost(
  api: Api,
  model: RuleModel,
  before: State,
  op: Operation,
  found: Disagreement[],
  back: ReadBack,
): Promise<Disagreement[]> {
  const missing = found.find(
    (d) =>
      d.signature.aspect === 'state-change' &&
      ['not stored', 'unchanged', 'not removed'].includes(d.signature.seen),
  );
  if (!missing || (op.kind !== 'put' && op.kind !== 'post' && op.kind !== 'delete')) return found;
  const id = canonicalId(op.kind === 'delete' ? op.id : op.user.id) ?? '';
  const again = await send(api, op);
  const after = (await readBack(api, model, [id])).back;
  const want = apply(before, op).state.users[id];
  const holds = want ? sameUser(want, after[id]) : after[id] === null;
  void back;
  if (!holds || observed(again).status >= 500) return found;
  return found.map((d) =>
    d === missing
      ? named(
          'lostUpdate',
          `${d.message}; sent again, it held: the first was lost to a concurrent write (a lost update)`,
        )
      : d,
  );
}

/**
 * After a restart: the list is read and judged against the state before it (model judgeRestart), and
 * the rule goes on from the users it shows.
 */
export async function restarted(api: Api): Promise<void> {
  const model = modelOf(api.log);
  const before = model.state(api.baseUrl);
  if (!before.collection) return;
  const reply = await api.get('/UserService/users');
  const seen = observed(reply);
  if (reply.status < 200 || reply.status > 299 || seen.body.kind !== 'users') return;
  model.add(judgeRestart(before, seen.body.users), reply);
  model.setState(api.baseUrl, adoptList(before, seen.body.users));
}

/**
 * The user a rule needs, created by PUT, or by POST when PUT does not store it (the other write verb).
 * When neither stored it, both are tried once more: on a shared target another rule's write may have
 * undone it between the write and its read-back (a lost update, a DELETE that hits another user), and
 * those defects are reported by the rules about them, not as this rule's "could not set up".
 */
export async function ensureUser(
  api: Api,
  user: { id: number | string; name: string; profession: string },
): Promise<{ stored: boolean; steps: Step[] }> {
  const id = canonicalId(user.id) ?? String(user.id);
  const wanted = { id, name: user.name, profession: user.profession };
  const steps: Step[] = [];
  for (const kind of ['put', 'post', 'put', 'post'] as const) {
    const done = await step(api, { kind, user });
    steps.push(done);
    const back = done.readBack ?? {};
    // The write answered success and its user could not be read back (an answer no reader can parse:
    // the read is the defect, a finding already): the rule goes on, to judge what it reads.
    if (!(id in back) && done.word === 'success') return { stored: true, steps };
    const seen = back[id] ?? null;
    // Stored, even with other fields (that is the step's finding): the rule goes on from what it sees.
    if (seen && (sameUser(wanted, seen) || kind === 'put')) return { stored: true, steps };
  }
  return { stored: false, steps };
}

/** How many times each outcome (or status) came. */
export function tally(outcomes: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  return counts;
}

/**
 * The result word of a write the rule sent itself (races, bulk creates), with the meaning this
 * implementation gives it: a word outside the spec's two is a finding of the rule, and is read as
 * what the rule's earlier steps showed it means; else `unreadable (status)`.
 */
export function outcome(api: Api, reply: Reply): string {
  const seen = observed(reply);
  // A server error among concurrent writes: the state they share broke, for a moment or for good.
  if (reply.status >= 500) modelOf(api.log).add([CORRUPTED(show(reply))], reply);
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
  return model.words.get(word) ?? `unreadable (${reply.status})`;
}

async function listSnapshot(api: Api): Promise<SeenUser[] | undefined> {
  const reply = await api.get('/UserService/users');
  const seen = observed(reply);
  return reply.status >= 200 && reply.status <= 299 && seen.body.kind === 'users'
    ? seen.body.users
    : undefined;
}

const sameFields = (a: SeenUser, b: SeenUser | undefined) =>
  !!b && a.name === b.name && a.profession === b.profession;

/**
 * Users other than the write's own that the write changed: for a POST, users that now carry its name
 * and profession; for a DELETE, users of the list before that are gone. (Other clients of a shared
 * target change users too: the POST's evidence is its own random text; a DELETE's is weaker.)
 */
function othersTouched(
  before: readonly SeenUser[],
  after: readonly SeenUser[],
  op: Operation,
  state: State,
): string[] {
  if (op.kind === 'post') {
    const own = canonicalId(op.user.id);
    return after
      .filter((u) => u.id !== own && u.name === op.user.name && u.profession === op.user.profession)
      .filter(
        (u) =>
          !sameFields(
            u,
            before.find((b) => b.id === u.id),
          ),
      )
      .map((u) => `user ${u.id} changed`);
  }
  if (op.kind !== 'delete') return [];
  // Only users the rule knows: on a shared target other clients remove theirs at any time.
  const own = canonicalId(op.id);
  return before
    .filter((u) => u.id !== own && u.id in state.users && !after.some((a) => a.id === u.id))
    .map((u) => `user ${u.id} removed`);
}

/** A finding another user's change explains: the write's own effect missing, or its word saying so. */
const explainedByAnotherRecord = (d: Disagreement): boolean =>
  (d.signature.aspect === 'state-change' && ['unchanged', 'not removed'].includes(d.signature.seen)) ||
  (d.signature.aspect === 'result-word' &&
    (d.signature.seen === 'success' || d.signature.seen === 'failure'));

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

/** The signature of a service whose every request fails: whichever rule meets it, one defect. */
const CORRUPTED = (answer: string) =>
  named(
    'corrupted',
    `the service answers server errors under concurrent writes, or to every request after them (its state corrupted): ${answer}`,
  );

/**
 * After a server error: when GET of the list fails too, the service is broken as a whole (its state
 * corrupted), which is one defect, not one per rule that meets it. Returns the finding, or undefined.
 */
export async function corruption(api: Api): Promise<Disagreement | undefined> {
  let reply: Reply;
  try {
    reply = await api.get('/UserService/users');
  } catch (err) {
    return CORRUPTED(`GET /UserService/users: ${(err as Error).message.split('\n')[0]}`);
  }
  return reply.status >= 500 ? CORRUPTED(show(reply)) : undefined;
}

/**
 * Users a rule created with concurrent PUTs answered success, and the list shows: each one the list
 * misses is read by id. Served by id: the list leaves it out; not served: the write was lost.
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
 * The model takes the user `id` as the implementation serves it (or its absence) after writes it did not
 * judge, such as a race: later steps are judged from there. Returns the read.
 */
export async function observeUser(api: Api, id: number | string): Promise<Reply> {
  const model = modelOf(api.log);
  const key = canonicalId(id) ?? '';
  const reply = await api.get(`/UserService/users/${key}`);
  const seen = observed(reply);
  const user =
    reply.status >= 200 && reply.status <= 299 && seen.body.kind === 'user' ? seen.body.user : null;
  model.setState(api.baseUrl, observeUsers(model.state(api.baseUrl), { [key]: user }));
  return reply;
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
  const alone = await step(api, op);
  if (alone.found.length) return;
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

// --- Section B: the APP-* rules' exchanges, judged through the model as the explorer judges them
// (explore/model.ts, explore/sequence.ts, explore/app-race.ts), so that a section B defect a rule meets
// carries the signature the explorer reports it under.

/** The model's section B operations. */
export type AppOp = Extract<
  Operation,
  {
    kind:
      | 'domain-create'
      | 'domain-list'
      | 'domain-get'
      | 'domain-update'
      | 'domain-delete'
      | 'worker-create'
      | 'worker-list'
      | 'worker-get'
      | 'worker-delete';
  }
>;

/** The request of a section B operation (the fixtures' create, README "Section B fixtures"). */
export function sendApp(api: Api, op: AppOp): Promise<Reply> {
  switch (op.kind) {
    case 'domain-create':
      return api.json('POST', appPath(op.app, 'domains'), { hostname: op.hostname });
    case 'worker-create':
      return api.json('POST', appPath(op.app, 'workers'), { command: op.command });
    case 'domain-list':
      return api.get(appPath(op.app, 'domains'));
    case 'worker-list':
      return api.get(appPath(op.app, 'workers'));
    case 'domain-get':
      return api.get(appPath(op.app, 'domains', op.id));
    case 'worker-get':
      return api.get(appPath(op.app, 'workers', op.id));
    case 'domain-update':
      return api.json('PATCH', appPath(op.app, 'domains', op.id), { hostname: op.hostname });
    case 'domain-delete':
      return api.send('DELETE', appPath(op.app, 'domains', op.id));
    case 'worker-delete':
      return api.send('DELETE', appPath(op.app, 'workers', op.id));
  }
}

/**
 * One section B answer judged on `state`: the first MUST disagreement (as the explorer names a failing
 * step by its first: one answer, one defect), and the state to go on from (a create's resource learnt
 * from its answer, model adopt).
 */
function judgeAppAnswer(held: Held, op: AppOp, seen: Observed): { held: Held; found: Disagreement[] } {
  const judged = stepHeld(held, op, seen);
  const [first] = judged.disagreements.filter((d) => d.level === 'MUST');
  return { held: judged.held, found: first ? [first] : [] };
}

export interface AppStep {
  reply: Reply;
  observed: Observed;
  found: Disagreement[];
  /** The id a create was answered with (what the model learnt), when it carried one. */
  id?: string;
}

/** Sends one section B operation, judges its answer with the model and records what disagrees. */
export async function stepApp(api: Api, op: AppOp): Promise<AppStep> {
  const reply = await sendApp(api, op);
  return judgeApp(api, op, reply);
}

/** An answer to a section B operation the rule sent itself, judged as stepApp judges it. */
export function judgeApp(api: Api, op: AppOp, reply: Reply): AppStep {
  const model = modelOf(api.log);
  const seen = observed(reply);
  const judged = judgeAppAnswer(model.held(api.baseUrl), op, seen);
  model.add(judged.found, reply);
  model.keep(api.baseUrl, judged.held);
  const id = op.kind === 'domain-create' || op.kind === 'worker-create' ? createdId(seen) : undefined;
  return {
    reply,
    observed: seen,
    found: judged.found,
    ...(id === undefined || !is2xx(reply.status) ? {} : { id }),
  };
}

const is2xx = (status: number) => status >= 200 && status <= 299;

/**
 * B-6: a worker whose DELETE was accepted is eventually no longer served. It is read until it is not,
 * for at most `timeoutMs` (CONFORMANCE_ASYNC_TIMEOUT_MS), never for a fixed time; still served then is
 * `worker removal | state-change | still served`, as the explorer reports it. Returns the last read.
 */
export async function awaitRemoval(
  api: Api,
  app: string,
  id: string,
  timeoutMs: number,
): Promise<{ reply: Reply; ms: number }> {
  const model = modelOf(api.log);
  const op: AppOp = { kind: 'worker-get', app, id };
  const began = Date.now();
  let reply = await sendApp(api, op);
  while (is2xx(reply.status) && Date.now() - began < timeoutMs) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    reply = await sendApp(api, op);
  }
  const ms = Date.now() - began;
  const wasRemoving = removing(model.held(api.baseUrl), app, id);
  judgeApp(api, op, reply);
  if (!wasRemoving) return { reply, ms };
  if (is2xx(reply.status))
    model.add(
      [
        named(
          'workerStillServed',
          `the worker ${id}, whose DELETE was accepted (202), is still served ${ms} ms later (B-6: it is eventually no longer served; CONFORMANCE_ASYNC_TIMEOUT_MS sets how long the suite waits)`,
        ),
      ],
      reply,
    );
  else {
    // Seen carried out: the model no longer holds the worker.
    model.keep(api.baseUrl, removed(model.held(api.baseUrl), app, id));
  }
  return { reply, ms };
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
