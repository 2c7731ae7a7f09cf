/**
 * The signature a defect is reported under: a shrunk sequence is run once more with the state read
 * back after every write (GET of its id, and the list for the others), and each write is judged by its
 * effect as well as by its answer (the model's judgeWrite). The first write whose effect or answer
 * disagrees names the defect (`PUT (new id) | state-change | other fields`, `write |
 * other-record-touched | another user`), so that one defect met at different later steps (a read that
 * misses a user, a PUT that succeeds on an id that should exist, …) is reported once. When no write
 * disagrees, the failing step's own signature stands (a defect of a read path).
 */

import { isKnown, unlessKnown } from '../model/findings.ts';
import {
  appliedLate,
  canonicalId,
  changeNotMade,
  explainedByAnotherRecord,
  initialState,
  judgeWrite,
  type Late,
  type Operation as ModelOperation,
  named,
  observeUsers,
  othersTouched,
  outsideTouched,
  type SeenUser,
  secondUserAdded,
  touchedFirst,
  withUser,
} from '../model/index.ts';
import { send } from './client.ts';
import { type Disagreement, type Held, initial, observed, type Signature, toModel } from './model.ts';
import { type Concrete, fillPut, isWrite, type Operation, request } from './operations.ts';
import {
  goOn,
  listedNow,
  poolIds,
  readBackChecked,
  removeFill,
  type SetAside,
  sendAndJudge,
  type Where,
} from './sequence.ts';
import { writeId } from './values.ts';

export interface Diagnosis {
  signature: Signature;
  level: Disagreement['level'];
  message: string;
  /** The 0-based index of the operation it names. */
  at: number;
}

/**
 * `level`: the level of the failure diagnosed. A MUST failure is named by MUST disagreements only (a
 * server error on the way does not rename it); a SHOULD failure by the first of either level.
 */
export async function diagnose(
  where: Where,
  ops: readonly Operation[],
  setAside: SetAside = new Set(),
  level: Disagreement['level'] = 'MUST',
): Promise<Diagnosis | 'known' | undefined> {
  // A sequence that wrote an id another way (leading zeros, a plus sign) on an implementation that keeps
  // ids as written: that is the cause it met, however later steps show it (idsKeptAsWritten).
  const otherWriting = ops.findIndex((op) => 'id' in op && op.id.writing !== 'plain');
  if (otherWriting >= 0) {
    const kept = await idsKeptAsWritten(where);
    if (kept)
      return isKnown(setAside, kept)
        ? 'known'
        : { signature: kept.signature, level: kept.level, message: kept.message, at: otherWriting };
  }
  const filled = Math.max(0, ...ops.map((op) => (op.kind === 'FILL' ? op.count : 0)));
  try {
    return await diagnoseSteps(where, ops, setAside, level);
  } finally {
    await removeFill(where, filled);
  }
}

async function diagnoseSteps(
  where: Where,
  ops: readonly Operation[],
  setAside: SetAside,
  level: Disagreement['level'],
): Promise<Diagnosis | 'known' | undefined> {
  let held = initial(where.scope === 'all' ? 'all' : poolIds(where.pool));
  let known = false;
  // A write answered success whose effect the reads showed missing: held until the next write, before
  // which a probe shows whether its change comes with a write (model/late.ts), as the rules hold it
  // (support/judged-users.ts probeLate). The sequence's own write is not weighed: a PUT of the same id
  // reads alike whether the DELETE was made late or never made and the PUT answered wrongly.
  let pending: Pending | undefined;
  for (const [i, op] of ops.entries()) {
    // The next write: a probe first, whose answer and effect tell whatever this write would do.
    if (pending && USER_WRITES.has(op.kind))
      return (await probeLate(where, held, pending, setAside)) ?? pending.diagnosis;
    const before = op.kind === 'POST' || op.kind === 'DELETE' ? await listBefore(where, held) : undefined;
    if (before) held = before.held;
    const listedBefore = before?.listed;
    const { concrete, exchange, judged } = await sendAndJudge(where, held, op);
    if (!judged || !exchange.observation) return pending?.diagnosis;
    let found: Disagreement[] = judged.disagreements;
    let read: Awaited<ReturnType<typeof readBackChecked>>;
    if (isWrite(concrete) && !judged.refused && held.state.collection) {
      read = 'value' in concrete ? await readBackChecked(where, held, concrete.value, true) : undefined;
      // The whole list too: a refused PUT's cause may be a user the model does not hold (another id's).
      if (read)
        found = judgeWrite(
          held.state,
          judged.model,
          observed(exchange.observation),
          judged.disagreements,
          read.back,
          { causes: true, listed: read.listed ?? [] },
        );
      if (listedBefore && read?.listed)
        found = firstUserNamed(
          found,
          listedBefore,
          read.listed,
          toModel(concrete),
          isKnown(setAside, named('firstUserTouched', '')),
        );
    }
    const counted = found.filter((d) => d.level === 'MUST' || d.level === level);
    // A step that meets a known defect: what else it shows is that defect's doing too.
    const open = unlessKnown(setAside, counted);
    // A write that hit another user is named by that, rather than by what it then did to its own.
    const first =
      open.find((d) => d.signature.aspect === 'other-record-touched') ??
      open.find((d) => d.level === 'MUST') ??
      open[0];
    if (first) {
      const diagnosis = { signature: first.signature, level: first.level, message: first.message, at: i };
      if (!read || !missingEffect(concrete, first)) return diagnosis;
      pending = { op: toModel(concrete), diagnosis, first: listedBefore?.[0] };
      held = { ...judged.held, state: observeUsers(judged.held.state, read.back) };
      continue;
    }
    // A defect reported already: go on from what the implementation shows.
    if (counted.length) known = true;
    if (!counted.length) {
      held = judged.held;
      continue;
    }
    const went = await goOn(
      where,
      held,
      judged.held,
      { op: concrete, model: judged.model, observation: exchange.observation },
      counted,
      setAside,
    );
    // Past a state the model cannot hold, left by a defect reported already: nothing more to name.
    if (went.beyond) return 'known';
    held = went.held;
  }
  if (pending) return (await probeLate(where, held, pending, setAside)) ?? pending.diagnosis;
  // Only defects reported already disagree: the failure is one of their consequences.
  return known ? 'known' : undefined;
}

/** The section A writes a write held pending may come with. */
const USER_WRITES: ReadonlySet<string> = new Set(['PUT', 'POST', 'DELETE', 'FILL']);

/** A write held pending: the model's write, its diagnosis when its effect never comes, the list's first user then. */
interface Pending {
  op: ModelOperation;
  diagnosis: Diagnosis;
  first: SeenUser | undefined;
}

/** A PUT of a new id or a DELETE answered as the spec says, its effect missing: it may come at the next write. */
const missingEffect = (op: Concrete, d: Disagreement): boolean =>
  (op.kind === 'PUT' || op.kind === 'DELETE') && changeNotMade(d) && d.signature.seen !== 'unchanged';

/** The pending write made late: its defect's diagnosis, or 'known' when it was reported already. */
function madeLate(late: Late, pending: Pending, setAside: SetAside): Diagnosis | 'known' | undefined {
  const [cause] = late.findings;
  if (!cause) return undefined;
  if (isKnown(setAside, cause)) return 'known';
  return { signature: cause.signature, level: cause.level, message: cause.message, at: pending.diagnosis.at };
}

/** Removes a probe's user (its id as `written`) on a shared target; a fresh instance is left as it is. */
async function removeProbe(where: Where, written: string): Promise<void> {
  if (where.scope === 'owned')
    await send(where.url, { method: 'DELETE', path: `/UserService/users/${written}`, headers: {} });
}

/** Past the pool's fills (at most FILL_BIG users from `fill`): the id of the probe below. */
const PROBE_OFFSET = 5000n;

/**
 * The sequence ended with a write pending: the next write a PUT of a fresh id, whose answer and effect
 * the model knows whatever the pending write did (as the rules' probe, support/judged-users.ts
 * probeLate). Its user is removed afterwards on a shared target.
 */
async function probeLate(
  where: Where,
  held: Held,
  pending: Pending,
  setAside: SetAside,
): Promise<Diagnosis | 'known' | undefined> {
  const put = fillPut({ kind: 'FILL', count: 1, first: where.pool.fill + PROBE_OFFSET }, 0);
  try {
    const answer = (await send(where.url, request(put))).observation;
    const read = answer && (await readBackChecked(where, held, put.value, true));
    const late =
      answer &&
      read &&
      appliedLate(held, pending.op, toModel(put), observed(answer), read.back, { first: pending.first });
    return late ? madeLate(late, pending, setAside) : undefined;
  } finally {
    await removeProbe(where, put.value);
  }
}

/** Past the pool's fills and the late probe's id (PROBE_OFFSET): the id of the probe below. */
const WRITING_PROBE_OFFSET = 5001n;

/**
 * Whether the implementation keeps ids as written, as the rules see it (USR-ID-01): a PUT of a fresh id,
 * then a PUT of the same id written with leading zeros and other fields, then the list. A second user
 * with the id is that defect (model secondUserAdded), named as the rules name it; undefined otherwise.
 * Its users are removed afterwards on a shared target.
 */
async function idsKeptAsWritten(where: Where): Promise<Disagreement | undefined> {
  const value = where.pool.fill + WRITING_PROBE_OFFSET;
  const plain = fillPut({ kind: 'FILL', count: 1, first: value }, 0);
  const zeros: Concrete = {
    ...plain,
    written: writeId(value, 'zeros'),
    writing: 'zeros',
    name: { text: `${plain.name.text}-zeros`, cls: 'plain' },
  };
  try {
    const stored = (await send(where.url, request(plain))).observation;
    const answer = stored && (await send(where.url, request(zeros))).observation;
    const listed = answer && (await listedNow(where.url));
    if (!listed) return undefined;
    const seen = observed(answer);
    const word = seen.body.kind === 'result' ? seen.body.word : `status ${seen.status}`;
    const held = toModel(plain);
    if (held.kind !== 'put') return undefined;
    const before = withUser(initialState(), { ...held.user, id: plain.value });
    return secondUserAdded(before, toModel(zeros), plain.value, listed, `answered ${word}`);
  } finally {
    for (const written of [plain.written, zeros.written]) await removeProbe(where, written);
  }
}

/**
 * The list before a POST or DELETE (the writes an equality that always holds turns on the first user):
 * whether a user it changed instead was the first of the list. On a service not read yet, the list is
 * read as a step of the model (the first read creates the collection).
 */
async function listBefore(
  where: Where,
  held: Held,
): Promise<{ held: Held; listed?: readonly SeenUser[] } | undefined> {
  let now = held;
  if (!now.state.collection) {
    const { judged } = await sendAndJudge(where, held, { kind: 'LIST' });
    if (!judged) return undefined;
    now = judged.held;
  }
  const listed = await listedNow(where.url);
  return { held: now, ...(listed ? { listed } : {}) };
}

const byAnotherUser = (d: Pick<Disagreement, 'signature'>) =>
  d.signature.aspect === 'other-record-touched' || explainedByAnotherRecord(d);

/**
 * A write that changed the first user of the list instead of its own (the list before and after it,
 * model/touched.ts, as the rules judge it): what its effect and word show is named by that one cause.
 */
export function firstUserNamed(
  found: readonly Disagreement[],
  before: readonly SeenUser[],
  after: readonly SeenUser[],
  op: ModelOperation,
  firstUserKnown = false,
): Disagreement[] {
  if (!found.some(byAnotherUser)) return [...found];
  let touched = othersTouched(before, after, op);
  // The defect named already, and a POST that left the first user of the list carrying what it sent
  // (it did already: a replay of the same texts, or texts as plain as 'n'): no change shows, but its
  // cause is the one named.
  if (!touched.length && firstUserKnown && op.kind === 'post') {
    const first = after[0];
    if (
      first &&
      first.id !== canonicalId(op.user.id) &&
      first.name === op.user.name &&
      first.profession === op.user.profession
    )
      touched = [{ id: first.id, text: `user ${first.id} carries its name and profession` }];
  }
  if (touchedFirst(before, touched) !== 'firstUserTouched') return [...found];
  return [
    named(
      'firstUserTouched',
      `the write changed the first user of the list instead: ${touched.map((t) => t.text).join(', ')}`,
    ),
    ...found.filter((d) => !byAnotherUser(d)),
  ];
}

/**
 * A concurrent round that changed or removed the first user of the list before it, none of its ids: its
 * failure (a lost update, a DELETE's word, …) is that cause's doing, named as the rules name it (a
 * write that hit another user is named by that, as diagnose does), not a race. Else undefined.
 */
export function firstUserChanged(
  before: readonly SeenUser[],
  after: readonly SeenUser[],
  ids: readonly bigint[],
): Disagreement | undefined {
  const touched = outsideTouched(before, after, new Set(ids.map(String)));
  // Each write of the round meets the first user of the list as it then is: those touched are the first
  // users of the list before, in order.
  const leading = before.slice(0, touched.length);
  if (!touched.every((t) => leading.some((u) => u.id === t.id))) return undefined;
  if (touchedFirst(before, touched.slice(0, 1)) !== 'firstUserTouched') return undefined;
  return named(
    'firstUserTouched',
    `the round changed the first user of the list, none of its own: ${touched.map((t) => t.text).join(', ')}`,
  );
}
