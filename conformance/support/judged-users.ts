/**
 * The rules' section A steps, judged through the executable model (model/): every write is sent, its
 * answer judged, and the state read back (GET by id and the list) judged as well. What disagrees with
 * the model is recorded as a finding of the rule, with its signature; the rule goes on from the state it
 * observed, and fails at its end (support/rule.ts) naming the cause: one wrong word no longer stops
 * the rule before it checks what it is about.
 */

import {
  adoptList,
  appliedLate,
  apply,
  canonicalId,
  changeNotMade,
  type Disagreement,
  explainedByAnotherRecord,
  type Held,
  judgeRestart,
  judgeWrite,
  NAMED_DEFECTS,
  named,
  type Observed,
  type Operation,
  observeUsers,
  othersTouched,
  type ReadBack,
  type SeenUser,
  SHOWN_STATE,
  type State,
  sameUser,
  secondUserAdded,
  secondUserUnseen,
  shownTogether,
  signatureKey,
  stepHeld,
  touchedFirst,
  WRITES,
} from '../model/index.ts';
import { type Api, type Reply, randomId, randomText } from './http.ts';
import { corruption, modelOf, observed, type RuleModel, usersIn } from './judged.ts';
import { lying, throughBothReaders } from './liars.ts';
import {
  heldByGet,
  listLiesTo,
  listSnapshot,
  observeUser,
  readBack,
  servedAny,
  servedWithId,
} from './read-back.ts';

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

/**
 * Whether a step's findings hold a MUST disagreement about what the write did or answered, not only how
 * its answer is labelled (a media type every answer shares): a rule that stops at a wrong write goes on
 * past a wrong label, which another rule names.
 */
export const wrongBeyondLabel = (found: readonly Disagreement[]): boolean =>
  found.some((d) => d.level === 'MUST' && d.signature.aspect !== 'media-type');

export interface Step {
  reply: Reply;
  observed: Observed;
  /** The result word, when the answer had one (in whatever representation). */
  word?: string;
  /** What reads showed afterwards (writes). */
  readBack?: ReadBack;
  /** The findings of this step. */
  found: Disagreement[];
  /** A write held pending (RuleModel.pending) came with this one: named as that write's (model/late.ts). */
  late?: true;
}

/**
 * Sends one section A operation, judges the answer and, for a write, the state read back afterwards;
 * records what disagrees; goes on from the state observed. `features`: the input is one the spec lets
 * an implementation refuse (model/held.ts): a refusal changes nothing and is no finding.
 */
export async function step(
  api: Api,
  op: Operation,
  options: { form?: string; features?: readonly string[] } = {},
): Promise<Step> {
  const model = modelOf(api.log);
  const held = model.held(api.baseUrl);
  const before = held.state;
  // A write held pending comes with the next write, if ever: this one is that write.
  const pending = WRITES.has(op.kind) ? model.pending : undefined;
  if (pending) model.pending = undefined;
  // POST and DELETE: the list before, to tell a write that hit another user from one that did nothing.
  const snapshot = op.kind === 'post' || op.kind === 'delete' ? await listSnapshot(api) : undefined;
  // The list known to lie: its first users as GET by id serves them, before and after (touchedOthers).
  const heldFirst = snapshot && lying('GET list') ? await heldByGet(api, snapshot) : undefined;
  const reply = await send(api, op, options.form);
  const seen = observed(reply);
  if (reply.status >= 500) {
    const broken = await corruption(api);
    if (broken) {
      model.add([broken], reply);
      return { reply, observed: seen, found: [broken] };
    }
  }
  let judged = stepHeld(held, op, seen, options.features ? { features: options.features } : {});
  // A refusal is what the answer claims: a read tells (issue 45, an answer is not trusted). A write whose
  // user did change after all was accepted, and is judged as such (its word, its effect).
  const own = judged.expected.touches[0];
  if (judged.refused && own !== undefined) {
    const { back, listed } = await readBack(api, model, [own], [], op);
    const was = before.users[own];
    const now = back[own];
    // Or a second user with the id, as it was written (an id kept as text: 007 beside 7).
    const added = listed && secondUserAdded(before, op, own, listed);
    if (added || (now !== undefined && (was ? !(now && sameUser(was, now)) : now !== null)))
      judged = stepHeld(held, op, seen);
  }
  const { expected } = judged;
  const next = judged.held.state;
  model.choices = judged.held.choices;
  const word = seen.body.kind === 'result' ? seen.body.word : undefined;
  // An input refused where the spec lets it be: nothing changed, nothing to read back.
  if (judged.refused) {
    model.add(judged.disagreements, reply);
    model.setState(api.baseUrl, next);
    return { reply, observed: seen, ...(word === undefined ? {} : { word }), found: judged.disagreements };
  }
  // A read through a reader known to lie (support/readers.ts): what it shows of the users is its lie,
  // judged once by the check; its answer's form is still judged, and the model goes on from its own state.
  if ((op.kind === 'list' && listLiesTo(model)) || (op.kind === 'get' && lying('GET by id'))) {
    const found = judged.disagreements.filter((d) => !SHOWN_STATE.has(d.signature.aspect));
    model.add(found, reply);
    model.setState(api.baseUrl, next);
    return { reply, observed: seen, ...(word === undefined ? {} : { word }), found };
  }
  if (!expected.touches.length || op.kind === 'get') {
    model.add(judged.disagreements, reply);
    const readable =
      op.kind === 'list' && reply.status >= 200 && reply.status <= 299 && seen.body.kind === 'users';
    model.setState(api.baseUrl, readable ? adoptList(next, usersIn(seen)) : next);
    return { reply, observed: seen, ...(word === undefined ? {} : { word }), found: judged.disagreements };
  }
  const removed = op.kind === 'delete' ? canonicalId(op.id) : undefined;
  // A DELETE held pending: its user is read by GET by id too, and a list still showing it once GET by
  // id no longer serves it is the list's lie, as for the DELETE judged now.
  const pendingGone = pending?.op.kind === 'delete' ? canonicalId(pending.op.id) : undefined;
  // And the first user of the list when it was sent: a DELETE may have been made on it instead.
  const pendingRead = [pendingGone, pending?.first?.id].filter((id): id is string => id !== undefined);
  const { back, listed, shown } = await readBack(
    api,
    model,
    [...new Set([...expected.touches, ...pendingRead])],
    [
      ...(removed && removed in before.users && !(removed in next.users) ? [removed] : []),
      ...(pendingGone === undefined ? [] : [pendingGone]),
    ],
    op,
  );
  const late =
    pending &&
    appliedLate(held, pending.op, op, seen, back, { first: pending.first, holdLater: pending.chained });
  if (late) {
    model.add(late.findings, pending.reply);
    model.add(late.found, reply);
    model.choices = late.later.held.choices;
    model.setState(api.baseUrl, observeUsers(late.later.held.state, back));
    if (late.heldAgain) holdAgain(model, op, reply, listed);
    const found = [...late.findings, ...late.found];
    return {
      reply,
      observed: seen,
      ...(word === undefined ? {} : { word }),
      readBack: back,
      found,
      late: true,
    };
  }
  // A list that only leaves users out judges the write by what it shows, and nothing else by it.
  const judgedBy = listed ?? (shown && shownTogether(shown, own === undefined ? undefined : back[own]));
  let found = judgeWrite(
    before,
    expected,
    seen,
    judged.disagreements,
    back,
    judgedBy ? { listed: judgedBy } : {},
  );
  // The list lies where it would show a second user with the PUT's id: its word alone is not judged.
  const listLiar = lying('GET list');
  if (
    listLiar &&
    own !== undefined &&
    found.every((d) => d.signature.aspect === 'result-word') &&
    secondUserUnseen(before, op, own, word, back, judgedBy)
  ) {
    model.unjudged ??= listLiar;
    found = [];
  }
  let goOn = observeUsers(next, back);
  const touched = snapshot
    ? listed
      ? othersTouched(snapshot, listed, op)
      : heldFirst
        ? othersTouched(heldFirst, await heldByGet(api, heldFirst), op)
        : []
    : [];
  if (touched.length && found.some(explainedByAnotherRecord)) {
    found = [
      ...found.filter((d) => !explainedByAnotherRecord(d)),
      named(
        touchedFirst(heldFirst ?? snapshot, touched),
        `${expected.situation} ${word === undefined ? `answered ${reply.status}` : `answered ${word}`}, and changed another user instead: ${touched.map((t) => t.text).join(', ')}`,
      ),
    ];
  } else {
    const first = listed ? snapshot?.[0] : undefined;
    const confirmed = await confirmLost(
      api,
      model,
      before,
      op,
      reply,
      found,
      observeUsers(next, back),
      first,
    );
    found = confirmed.found;
    goOn = confirmed.state ?? goOn;
  }
  // The user changed instead is the first of the list: whichever judgement saw it, that is the cause.
  if (touchedFirst(heldFirst ?? snapshot, touched) === 'firstUserTouched')
    found = found.map((d) =>
      d.signature.aspect === 'other-record-touched' ? named('firstUserTouched', d.message) : d,
    );
  else found = unplaced(model, op, found);
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
  model.setState(api.baseUrl, goOn);
  return { reply, observed: seen, ...(word === undefined ? {} : { word }), readBack: back, found };
}

/** A DELETE of the default user whose read-back serves it: came back, or never removed (the write sent again tells). */
const DEFAULT_BACK_KEY = signatureKey(NAMED_DEFECTS.defaultBack.signature);

/**
 * The DELETE `op` sent again, held pending in turn after a removal made late (confirmLost; `sent`: what
 * the model holds after it, its change not made, and the list then): sent a third time, its change
 * comes with that one, or it was not made late (the reads alone are also a first DELETE lost and the
 * second made at once). The findings of the write sent again, the third's, and what the model holds
 * then; undefined when its change did not come. The third, held in turn too, is left pending for the
 * rule's next write.
 */
async function madeAtNext(
  api: Api,
  model: RuleModel,
  op: Extract<Operation, { kind: 'delete' }>,
  sent: { held: Held; listed: readonly SeenUser[] | undefined },
): Promise<{ findings: Disagreement[]; found: Disagreement[]; held: Held } | undefined> {
  const first = sent.listed?.[0];
  const id = canonicalId(op.id) ?? '';
  const third = await send(api, op);
  const read = first && first.id !== id ? [id, first.id] : [id];
  const { back, listed } = await readBack(api, model, read, [id]);
  const late = appliedLate(sent.held, op, op, observed(third), back, { first, holdLater: true });
  if (!late) return undefined;
  if (late.heldAgain) holdAgain(model, op, third, listed);
  const { held } = late.later;
  return {
    findings: late.findings,
    found: late.found,
    held: { ...held, state: observeUsers(held.state, back) },
  };
}

/** A DELETE of an unknown id answered success: sent again, it may show a removal made late (confirmLost). */
const UNKNOWN_DELETE_SUCCESS = 'DELETE (unknown id) | result-word | success';

/**
 * A DELETE answered success whose change is not shown yet, after a write made late (model/late.ts
 * heldAgain): held pending in turn, with the first user of the list read after it (its change not
 * made, that list is the one it met).
 */
function holdAgain(
  model: RuleModel,
  op: Operation,
  reply: Reply,
  listed: readonly SeenUser[] | undefined,
): void {
  model.pending = { op, reply, first: listed?.[0], chained: true };
}

/** Another user changed, or a change that held only when sent again: what a write on another user shows. */
const UNPLACED = new Set(
  [NAMED_DEFECTS.otherRecordTouched, NAMED_DEFECTS.lostUpdate].map((d) => signatureKey(d.signature)),
);

/**
 * A POST or DELETE that changed another user than its own (GET by id saw that user change), or whose
 * change held only when sent again (as when the first one changed a user the list does not show), while
 * the list is known to lie: the list cannot show whether that user is its first, the one an equality
 * that always holds meets, so the write is not named by a cause (neither "another user" nor a lost
 * update): the model records it unjudged, and the rule could not check it (support/rule.ts).
 */
function unplaced(model: RuleModel, op: Operation, found: Disagreement[]): Disagreement[] {
  const liar = lying('GET list');
  if (!liar || (op.kind !== 'post' && op.kind !== 'delete')) return found;
  if (!found.some((d) => UNPLACED.has(signatureKey(d.signature)))) return found;
  model.unjudged ??= liar;
  return found.filter((d) => !UNPLACED.has(signatureKey(d.signature)) && !explainedByAnotherRecord(d));
}

/**
 * A write that answered success and whose change is missing is sent once more (the next write), as is a
 * DELETE of an unknown id answered success that changed nothing the reads show; a DELETE after a probe
 * (probeLate), which a removal made late comes with (a DELETE sent again, answered success for the id it
 * removed, would read as the first lost and the second made at once as well). When the first one's
 * change came with it, the second answered as the spec says once the first is made (a DELETE answered
 * failure), the first write's change was made late (model/late.ts appliedLate): that one defect (and,
 * made on `first`, the first user of the list when it was sent, that one too). Else, when it is
 * answered success again and the change then holds, it was lost to a concurrent write (a lost update),
 * not a write that never works. `shown`: the state the reads showed after the first write. Returns the
 * findings and, when the write sent again changed it, the state to go on from.
 */
async function confirmLost(
  api: Api,
  model: RuleModel,
  before: State,
  op: Operation,
  reply: Reply,
  found: Disagreement[],
  shownFirst: State,
  first?: SeenUser,
): Promise<{ found: Disagreement[]; state?: State }> {
  const missing = found.find(
    (d) =>
      changeNotMade(d) ||
      (op.kind === 'delete' &&
        [DEFAULT_BACK_KEY, UNKNOWN_DELETE_SUCCESS].includes(signatureKey(d.signature))),
  );
  if (!missing || (op.kind !== 'put' && op.kind !== 'post' && op.kind !== 'delete')) return { found };
  // A DELETE: first a write of another user, whose answer and effect say something whatever a DELETE of
  // the id, now unknown if made, would answer (delete-unknown-success): a removal made late comes with it.
  let shown = shownFirst;
  // Not where the default user is read back after the collection was emptied: a read of an empty
  // collection may bring it back (its own defect, DEFAULT_BACK), which a probe's PUT would hide.
  if (op.kind === 'delete' && signatureKey(missing.signature) !== DEFAULT_BACK_KEY) {
    model.setState(api.baseUrl, shown);
    if (await probeLate(api, { op, reply, first }))
      return { found: found.filter((d) => d !== missing), state: model.state(api.baseUrl) };
    shown = model.state(api.baseUrl);
  }
  const id = canonicalId(op.kind === 'delete' ? op.id : op.user.id) ?? '';
  const again = await send(api, op);
  const againSeen = observed(again);
  // Made late, a DELETE's user is gone now: a list still showing it is the list's lie (readBack).
  const read = first && first.id !== id ? [id, first.id] : [id];
  const { back: after, listed } = await readBack(api, model, read, op.kind === 'delete' ? [id] : []);
  const held: Held = { state: shown, choices: model.choices, accepts: {} };
  const late = appliedLate(held, op, op, againSeen, after, { first, holdLater: true });
  const heldNext = late && { ...late.later.held, state: observeUsers(late.later.held.state, after) };
  // Held in turn, the write sent again is confirmed so by a third sending, which its change comes with.
  // (Not confirmed, it is judged below on what the second sending showed.)
  const made =
    late && heldNext && late.heldAgain && op.kind === 'delete'
      ? await madeAtNext(api, model, op, { held: heldNext, listed })
      : late && heldNext && { findings: [], found: late.found, held: heldNext };
  if (late && made) {
    model.choices = made.held.choices;
    return {
      found: [
        ...found.flatMap((d) => (d === missing ? late.findings : [d])),
        ...made.findings,
        ...made.found,
      ],
      state: made.held.state,
    };
  }
  if (missing.signature.aspect !== 'state-change') return { found };
  const want = apply(before, op).state.users[id];
  const holds = want ? sameUser(want, after[id]) : after[id] === null;
  // Lost to a concurrent write, the write sent again alone is answered success and holds. Answered
  // otherwise, and not made late either, the first write's change stays named by what was missing.
  const againWord = againSeen.body.kind === 'result' ? againSeen.body.word : undefined;
  const againSuccess = againWord !== undefined && model.meaning(againWord) === 'success';
  if (!holds || !againSuccess || againSeen.status >= 500) return { found };
  return {
    found: found.map((d) =>
      d === missing
        ? named(
            'lostUpdate',
            `${d.message}; sent again, it held: the first was lost to a concurrent write (a lost update)`,
          )
        : d,
    ),
  };
}

/**
 * A write the rule sent itself (`op`, answered success by `reply`) whose effect the reads show missing:
 * the model takes its user, and every other it holds, as served (the rule's own writes went round it:
 * the probe is judged on what comes with it alone), holds the write pending, with the first user of the
 * list for a DELETE, and sends a probe (probeLate); when the pending write's change came with it, that
 * is named as the write's (model/late.ts). True when so.
 */
export async function lateAtNextWrite(
  api: Api,
  op: Extract<Operation, { kind: 'put' | 'delete' }>,
  reply: Reply,
): Promise<boolean> {
  const own = canonicalId(op.kind === 'put' ? op.user.id : op.id) ?? '';
  const held = Object.keys(modelOf(api.log).state(api.baseUrl).users);
  for (const id of new Set([own, ...held])) await observeUser(api, id);
  // A DELETE may have been made on the first user of the list: the list as it met it, its change not made
  // (not a list known to lie: a stale one shows a first user gone long since, as step() reads it).
  const first =
    op.kind === 'delete' && !listLiesTo(modelOf(api.log)) ? (await listSnapshot(api))?.[0] : undefined;
  return probeLate(api, { op, reply, first });
}

/**
 * Holds `pending` (a write answered success whose effect the reads showed missing, on the state the
 * model holds now) and sends through step() the next write: a PUT of a fresh id (removed after the
 * rule, RuleModel.probes), whose answer, success, and effect, its user stored, the model knows whatever
 * the pending write did. The pending write's change coming with it is a write made late (model/late.ts),
 * told apart from a write lost to a concurrent one (its change does not come with another user's write)
 * and from a DELETE of an unknown id answered success (a DELETE sent again to see it would answer so).
 * True when so.
 */
async function probeLate(api: Api, pending: NonNullable<RuleModel['pending']>): Promise<boolean> {
  const model = modelOf(api.log);
  const user = { id: randomId(), name: randomText('probe-name'), profession: randomText('probe-prof') };
  model.probes.push({ api, id: user.id });
  model.pending = pending;
  return (await step(api, { kind: 'put', user })).late === true;
}

/**
 * After a restart: the list is read and judged against the state before it (model judgeRestart), and
 * the rule goes on from the users it shows. When the list is known to lie about the users it holds
 * (support/readers.ts), each user the model knows is read by GET by id instead: what the restart lost
 * is judged, not what it brought back (a user unknown to the model is not seen so).
 */
export async function restarted(api: Api): Promise<void> {
  const model = modelOf(api.log);
  const before = model.state(api.baseUrl);
  if (!before.collection) return;
  if (listLiesTo(model)) {
    // GET by id lies too: whether it serves the user, with the list's fields (throughBoth).
    const both = lying('GET by id') ? usersIn(observed(await api.get('/UserService/users'))) : undefined;
    const back: Record<string, SeenUser | null> = {};
    let lost: Reply | undefined;
    for (const [id, user] of Object.entries(before.users)) {
      const reply = await api.get(`/UserService/users/${id}`);
      const seen = both ? throughBothReaders(id, servedAny(reply), both) : servedWithId(observed(reply), id);
      if (seen === undefined) continue;
      back[id] = seen;
      if (!sameUser(user, back[id])) lost ??= reply;
    }
    const kept = Object.values(back).filter((u): u is SeenUser => !!u);
    if (lost) model.add(judgeRestart({ ...before, complete: false }, kept), lost);
    model.setState(api.baseUrl, observeUsers(before, back));
    return;
  }
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
  // A verb seen changing another user instead is not sent again: sent again, it changes that user to
  // what it already is, and the write looks like one that did nothing (a wrong result word).
  const elsewhere = new Set<string>();
  for (const kind of ['put', 'post', 'put', 'post'] as const) {
    if (elsewhere.has(kind)) continue;
    const done = await step(api, { kind, user });
    steps.push(done);
    if (done.found.some((d) => d.signature.aspect === 'other-record-touched')) elsewhere.add(kind);
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

/**
 * A write the rule sent itself (a race, a text of its own) answered success, and its user does not carry
 * what it sent: when another user of the list now carries that name and profession (the write's own
 * text), the write changed that user instead, which is the finding (named as touchedFirst says), not the
 * rule's symptom. True when so.
 */
export async function changedAnother(
  api: Api,
  sent: { id: number | string; name: string; profession: string },
  reply: Reply,
): Promise<boolean> {
  const list = await api.get('/UserService/users');
  const seen = observed(list);
  if (list.status < 200 || list.status > 299 || seen.body.kind !== 'users') return false;
  const own = canonicalId(sent.id);
  const others = seen.body.users.filter(
    (u) => u.id !== own && u.name === sent.name && u.profession === sent.profession,
  );
  if (!others.length) return false;
  modelOf(api.log).add(
    [
      named(
        touchedFirst(seen.body.users, others),
        `${reply.method} of user ${own} answered success and changed another user instead: ${others.map((u) => `user ${u.id} changed`).join(', ')}`,
      ),
    ],
    reply,
  );
  return true;
}
