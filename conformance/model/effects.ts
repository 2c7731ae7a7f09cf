/**
 * Judging a write by what it did, not only by the words it answered: the users read back after the
 * write (GET by id and the list) are compared with the state the model expects. A write whose answer
 * and effect agree with each other but not with the spec is one disagreement, named by its effect
 * (`PUT (new id)`: `does what POST does`); a wrong word whose change did happen is a word defect only;
 * a write that changed a user it does not address is `other-record-touched`.
 */
import { apply, type Expected } from './answers.ts';
import { createdId } from './formats.ts';
import { named } from './named-defects.ts';
import type { Observed, SeenUser } from './observe.ts';
import type { Operation } from './operations.ts';
import { type Disagreement, disagreement } from './signature.ts';
import { DEFAULT_USER_ID, type ModelUser, type State } from './state.ts';
import { DEFAULT_BACK, incompleteUser, sameUser, showUser } from './users.ts';

/** What reads showed after an operation, by canonical id: a user, or null when none is served. */
export type ReadBack = Readonly<Record<string, SeenUser | null>>;

type Effect =
  | 'as expected'
  | 'not stored'
  | 'replaced'
  | 'removed'
  | 'created'
  | 'unchanged'
  | 'merged'
  | 'not removed'
  | 'other fields';

function effectOn(
  before: ModelUser | undefined,
  after: ModelUser | undefined,
  seen: SeenUser | null,
  sent?: ModelUser,
): Effect {
  if (after ? sameUser(after, seen) : seen === null) return 'as expected';
  if (!after) return before ? 'not removed' : 'created';
  if (!seen) return before ? 'removed' : 'not stored';
  if (!before) return 'other fields';
  // Unchanged only where the old fields are known (a user the model never read has none to compare).
  const oldKnown = before.name !== undefined && before.profession !== undefined;
  if (oldKnown && sameUser(before, seen)) return 'unchanged';
  if (sent && sameUser(sent, seen)) return 'replaced';
  if (sent && (seen.name === sent.name || seen.profession === sent.profession)) return 'merged';
  return 'other fields';
}

/** A write's own change not made: its user not stored, unchanged, or not removed (it may come late, or be lost). */
const NOT_MADE: ReadonlySet<string> = new Set<Effect>(['not stored', 'unchanged', 'not removed']);

/** Whether `d` says a write's own change was not made (NOT_MADE): what a write made late or lost shows. */
export const changeNotMade = (d: Pick<Disagreement, 'signature'>): boolean =>
  d.signature.aspect === 'state-change' && NOT_MADE.has(d.signature.seen);

const OTHER_VERB: Partial<Record<Operation['kind'], 'put' | 'post'>> = { put: 'post', post: 'put' };

const wordOf = (observed: Observed): string | undefined =>
  observed.body.kind === 'result' ? observed.body.word : undefined;

/**
 * The disagreements of a write, answer and effect together. `answered` are judge()'s disagreements with
 * its answer; `readBack` what reads showed afterwards (the write's own id at least). With `causes` (the
 * explorer's, which judges shrunk sequences: a PUT that does what POST does shrinks to one PUT, a
 * deleted id kept reserved does not), a PUT of a new id refused where `before` shows why is named by
 * that cause (refusalCause); the rules, whose fixtures often share fields, keep `does what POST does`.
 * With `listed` (the list read after the write), a PUT of an existing id that added a second user with
 * the id is named so (secondUserAdded).
 */
export function judgeWrite(
  before: State,
  expected: Expected,
  observed: Observed,
  answered: readonly Disagreement[],
  readBack: ReadBack,
  options: { causes?: boolean; listed?: readonly SeenUser[] } = {},
): Disagreement[] {
  // Open (a write before any read, a write by path): the model learns the effect from the reads.
  if (expected.body.kind === 'any') return [...answered];
  const op = expected.op;
  const after = apply(before, op).state;
  const where = expected.situation;
  const word = wordOf(observed);
  const said = word === undefined ? `answered ${observed.status}` : `answered ${word}`;
  const out: Disagreement[] = [];
  const own = expected.touches[0];
  // SVC-11: the collection emptied, a read shows the default user again: that read brought it back,
  // whichever user's removal emptied it. Unless the user served is the one this write sent: then the
  // write stored it (a POST doing a PUT); or a DELETE of user 1 did not say it removed it (a 5xx);
  // and a write whose own user is wrong is judged by that first.
  const wrote =
    op.kind === 'put' || op.kind === 'post'
      ? { id: DEFAULT_USER_ID, name: op.user.name, profession: op.user.profession }
      : undefined;
  const ownAsExpected =
    own === undefined ||
    !(own in readBack) ||
    (after.users[own] ? sameUser(after.users[own], readBack[own] ?? null) : readBack[own] === null);
  if (
    after.complete &&
    !Object.keys(after.users).length &&
    readBack[DEFAULT_USER_ID] &&
    (own === DEFAULT_USER_ID
      ? !(wrote && sameUser(wrote, readBack[own])) && (op.kind !== 'delete' || word === 'success')
      : ownAsExpected)
  )
    return [DEFAULT_BACK(where)];
  // A user read back without an element (RES-USER-1) is that defect, whatever else the write did.
  const incomplete = own === undefined ? undefined : readBack[own] && incompleteUser(where, readBack[own]);
  if (incomplete) return [incomplete, ...others(before, after, expected, readBack)];
  // The list shows the id twice, the PUT's fields among them: that addition is the defect, whatever the
  // word (a success word tells it truly) and whatever GET by id serves (the one of the two it finds).
  const second =
    own === undefined || !options.listed ? undefined : secondUserAdded(before, op, own, options.listed, said);
  if (second)
    return [
      second,
      ...answered.filter(
        (d) => d.signature.aspect !== 'result-word' || (word !== 'success' && word !== 'failure'),
      ),
      ...others(before, after, expected, readBack),
    ];
  let effectWrong = false;
  if (own !== undefined && own in readBack) {
    const sent =
      op.kind === 'put' || op.kind === 'post'
        ? (after.users[own] ?? { id: own, name: op.user.name, profession: op.user.profession })
        : undefined;
    const effect = effectOn(before.users[own], after.users[own], readBack[own] ?? null, sent);
    const wordWrong = expected.body.kind === 'result' && word !== expected.body.word;
    // No result at all (a server error, an unreadable body) and no change: the answer is the one defect.
    const noAnswer = answered.some((d) => d.signature.aspect === 'body-shape');
    if (noAnswer && NOT_MADE.has(effect)) return [...answered];
    if (effect !== 'as expected' || wordWrong) {
      effectWrong = effect !== 'as expected';
      // A PUT of a new id refused (the failure result, nothing stored) where the model sees why: named
      // by that cause (an id deleted before, another user with the same fields), not as what POST does.
      const cause =
        options.causes && op.kind === 'put' && effect === 'not stored' && word === 'failure'
          ? refusalCause(
              before,
              { id: own, name: op.user.name, profession: op.user.profession },
              where,
              options.listed,
            )
          : undefined;
      if (cause) return [cause, ...others(before, after, expected, readBack)];
      const other = OTHER_VERB[op.kind];
      if (other && (op.kind === 'put' || op.kind === 'post')) {
        const alt = apply(before, { kind: other, user: op.user });
        const altWord = alt.expected.body.kind === 'result' ? alt.expected.body.word : undefined;
        const altState = alt.state.users[own];
        const matches = altState ? sameUser(altState, readBack[own] ?? null) : readBack[own] === null;
        // A POST of the values its user holds leaves it as a PUT would: the effect does not tell the verbs
        // apart, the word alone disagrees (an answer that counts the users changed), named as a word. (A
        // PUT of an equal user answered success stays what POST does: the verbs swapped name it so.)
        const mine = after.users[own];
        const alike = op.kind === 'post' && !!altState && !!mine && sameUser(altState, mine);
        // What the other verb does, answered with that verb's word, or with this verb's own (right) word
        // where the user did change: the change is that verb's, whatever the word (a PUT that overwrites and
        // answers failure as a PUT of an existing id should). Nothing changed stays `not stored` (`unchanged`).
        const held = before.users[own];
        const seenNow = readBack[own] ?? null;
        const changed = held ? !sameUser(held, seenNow) : seenNow !== null;
        if (matches && !alike && (word === altWord || (!wordWrong && changed))) {
          const verb = other.toUpperCase();
          out.push(
            disagreement(
              op.kind.toUpperCase(),
              'state-change',
              `does what ${verb} does`,
              `${where} ${said} and ${effectWrong ? effectText(effect, own) : describeDone(before, after, own)}: it does what ${verb} does`,
            ),
          );
          return [...out, ...others(before, after, expected, readBack)];
        }
      }
      const causes = effectWrong && sent ? textCauses(sent, readBack[own] ?? null) : [];
      const served = `${where} ${said}; user ${own} is served as ${showUser(readBack[own] ?? undefined)}`;
      for (const cause of causes) out.push(named(cause, `${served}: ${TEXT_CAUSES[cause].why}`));
      if (effectWrong && !causes.length)
        out.push(disagreement(where, 'state-change', effect, `${where} ${said}; ${effectText(effect, own)}`));
    }
  }
  for (const d of answered) {
    // The word told the truth about a wrong effect: the effect is the defect, reported once.
    if (effectWrong && d.signature.aspect === 'result-word' && (word === 'success' || word === 'failure'))
      continue;
    if (!effectWrong && d.signature.aspect === 'result-word' && own !== undefined && own in readBack)
      out.push({ ...d, message: `${d.message}; ${describeDone(before, after, own)}` });
    else out.push(d);
  }
  return [...out, ...others(before, after, expected, readBack)];
}

/** Causes that change the text of the fields stored, each with what it does to a text sent, and why. */
const TEXT_CAUSES = {
  // A form decoder that does not read "+" as a space (a space is written "+" in a form).
  formPlusKept: {
    apply: (text: string) => text.replace(/ /g, '+'),
    why: 'each space sent, written "+" in the form, is stored as "+"',
  },
  textTrimmed: {
    apply: (text: string) => text.trim(),
    why: 'the white space sent at either end of a field is not stored',
  },
} as const;
type TextCause = keyof typeof TEXT_CAUSES;

/**
 * The causes that explain why `seen` is not `sent`, the fewest that do: each field stored is the one
 * sent with the causes applied (any of them, in any order); [] when none explains it (another text).
 * So that two causes met at once are named as the two, not as other fields.
 */
export function textCauses(sent: ModelUser, seen: SeenUser | null): TextCause[] {
  if (!seen || sameUser(sent, seen)) return [];
  const tries: TextCause[][] = [['formPlusKept'], ['textTrimmed'], ['formPlusKept', 'textTrimmed']];
  const reachable = (causes: readonly TextCause[], text: string): Set<string> => {
    let texts = new Set([text]);
    for (let i = 0; i < causes.length; i++)
      texts = new Set([...texts, ...[...texts].flatMap((t) => causes.map((c) => TEXT_CAUSES[c].apply(t)))]);
    return texts;
  };
  const explains = (causes: readonly TextCause[], text: string | undefined, stored: string | undefined) =>
    stored === text || (text !== undefined && stored !== undefined && reachable(causes, text).has(stored));
  return (
    tries.find(
      (causes) =>
        explains(causes, sent.name, seen.name) && explains(causes, sent.profession, seen.profession),
    ) ?? []
  );
}

/**
 * Why a PUT of `user`, an id the model does not hold, would be refused by an implementation that
 * mistakes what identifies a user, as the model sees it in `state`: the id was deleted before (it stays
 * reserved), or another user has the same name and profession (users told apart by their fields). The
 * named defect, or undefined when neither holds. `where` is the situation, for the message; `listed`,
 * the users a list read showed besides those the model holds (another user of the same fields may be
 * one the run does not own).
 */
export function refusalCause(
  state: State,
  user: { id: string; name?: string; profession?: string },
  where = 'PUT (new id)',
  listed: readonly SeenUser[] = [],
): Disagreement | undefined {
  if (state.users[user.id]) return undefined;
  if (state.deleted?.includes(user.id))
    return named(
      'deletedIdReserved',
      `${where} answered failure and stored nothing: user ${user.id} was deleted before, and the spec lets a PUT create it again (A-R3.1)`,
    );
  if (user.name === undefined || user.profession === undefined) return undefined;
  const twin = [...Object.values(state.users), ...listed].find(
    (u) => u.id !== user.id && u.name === user.name && u.profession === user.profession,
  );
  if (twin)
    return named(
      'identityByFields',
      `${where} answered failure and stored nothing for ${showUser(user as ModelUser)}, while ${showUser(twin)} has the same name and profession: users are told apart by their id (A-R3.1)`,
    );
  return undefined;
}

/**
 * A-R3.3, RES-USER-2: a PUT of the id `id`, which the model holds, after which the list shows that id
 * more than once, one of the users with the fields the PUT sent: the PUT added a second user with the
 * id. The named defect (its message says what `word` the PUT answered), or undefined. The rules' read-back
 * and judgeWrite ask the same, so that the list's repeated user is this defect, reported once.
 */
export function secondUserAdded(
  before: State,
  op: Operation,
  id: string,
  listed: readonly SeenUser[],
  said = 'answered',
): Disagreement | undefined {
  const held = before.users[id];
  if (op.kind !== 'put' || !held || op.user.name === undefined || op.user.profession === undefined)
    return undefined;
  const sent = { id, name: op.user.name, profession: op.user.profession };
  const withId = listed.filter((u) => u.id === id);
  if (withId.length < 2 || !withId.some((u) => sameUser(sent, u))) return undefined;
  return named(
    'secondUserSameId',
    `PUT (existing id) of ${showUser(sent)} ${said}, and the list then shows ${withId.length} users with id ${id}, one with the fields it sent: a PUT of an existing id changes nothing (A-R3.3), and an id names one user (RES-USER-2)`,
  );
}

/**
 * The ids a list shows more than once: a state the model cannot hold (an id names one user, RES-USER-2),
 * which a defect such as secondUserAdded leaves. Whatever follows on it cannot be judged against the model.
 */
export function shownTwice(listed: readonly SeenUser[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const u of listed) (seen.has(u.id) ? twice : seen).add(u.id);
  return [...twice];
}

/**
 * A PUT of the existing id `id` answered success, GET by id showing the user unchanged, where no list
 * true of that id was read (`listed`: a list true of the users it shows, read back, or undefined): a
 * wrong word, or a second user with the id that only the list would show (secondUserAdded). No read
 * tells which, so the write is not judged (the lying list's defect is why).
 */
export function secondUserUnseen(
  before: State,
  op: Operation,
  id: string,
  word: string | undefined,
  readBack: ReadBack,
  listed: readonly SeenUser[] | undefined,
): boolean {
  const held = before.users[id];
  if (op.kind !== 'put' || word !== 'success' || !held || !(id in readBack)) return false;
  return sameUser(held, readBack[id] ?? null) && !listed?.some((u) => u.id === id);
}

function effectText(effect: Effect, id: string): string {
  switch (effect) {
    case 'not stored':
      return `user ${id} was not stored`;
    case 'replaced':
      return `user ${id} was replaced`;
    case 'removed':
      return `user ${id} was removed`;
    case 'created':
      return `user ${id} was created`;
    case 'unchanged':
      return `user ${id} kept its old name and profession`;
    case 'merged':
      return `user ${id} mixes old and new fields`;
    case 'not removed':
      return `user ${id} is still served`;
    default:
      return `user ${id} is served with other fields`;
  }
}

function describeDone(before: State, after: State, id: string): string {
  const was = before.users[id];
  const now = after.users[id];
  if (!was && now) return `the user was created`;
  if (was && !now) return `the user was removed`;
  if (was && now && !sameUser(was, { id, name: now.name, profession: now.profession }))
    return `the user was replaced`;
  return `the collection was left as it was`;
}

/** Users the write does not address that the reads show changed: it touched another record. */
function others(before: State, after: State, expected: Expected, readBack: ReadBack): Disagreement[] {
  const out: Disagreement[] = [];
  for (const [id, seen] of Object.entries(readBack)) {
    if (expected.touches.includes(id)) continue;
    const model = after.users[id];
    const ok = model ? sameUser(model, seen) : seen === null || !before.complete;
    if (!ok)
      out.push(
        named(
          'otherRecordTouched',
          `${expected.situation} changed another user: ${model ? `${showUser(model)} is now ${seen ? showUser(seen) : 'gone'}` : `${showUser(seen)} appeared`}`,
        ),
      );
  }
  return out.slice(0, 1);
}

/** The state to go on from: what the reads showed (a rule goes on from the observed state). */
export function observeUsers(state: State, readBack: ReadBack): State {
  const users = { ...state.users };
  for (const [id, seen] of Object.entries(readBack)) {
    if (seen)
      users[id] = {
        id,
        ...(seen.name === undefined ? {} : { name: seen.name }),
        ...(seen.profession === undefined ? {} : { profession: seen.profession }),
      };
    else delete users[id];
  }
  return { ...state, collection: true, users };
}

/** After a list read: what it showed is the state to go on from (every user, when the model knows them all). */
export function adoptList(state: State, listed: readonly SeenUser[]): State {
  const users: Record<string, ModelUser> = state.complete ? {} : { ...state.users };
  const asModel = (u: SeenUser): ModelUser => ({
    id: u.id,
    ...(u.name === undefined ? {} : { name: u.name }),
    ...(u.profession === undefined ? {} : { profession: u.profession }),
  });
  if (state.complete) for (const u of listed) users[u.id] = asModel(u);
  else
    for (const id of Object.keys(state.users)) {
      const found = listed.find((u) => u.id === id);
      if (found) users[id] = asModel(found);
      else delete users[id];
    }
  return { ...state, users };
}

/** Section B creates: the id is the implementation's, so the model learns the resource from the answer. */
export function adopt(state: State, op: Operation, observed: Observed): State {
  if (op.kind !== 'domain-create' && op.kind !== 'worker-create') return state;
  const id = createdId(observed);
  if (id === undefined) return state;
  // A JSON object: createdId read its id from it.
  const v = (observed.body.kind === 'json' ? observed.body.value : {}) as Record<string, unknown>;
  const app = state.apps[op.app] ?? { domains: {}, workers: {} };
  const next =
    op.kind === 'domain-create'
      ? {
          ...app,
          domains: {
            ...app.domains,
            [id]: {
              ...v,
              id,
              hostname: String(v.hostname ?? op.hostname),
              created_at: String(v.created_at ?? ''),
              updated_at: String(v.updated_at ?? ''),
            },
          },
        }
      : { ...app, workers: { ...app.workers, [id]: { id, removing: false, fields: v } } };
  return { ...state, apps: { ...state.apps, [op.app]: next } };
}

/**
 * A restart judged by the users it kept (persistence, a SHOULD): the list read after it against the
 * model's state before it. Whatever went (data lost, an emptied collection filled again, a user
 * brought back), it is one defect, `restart | state-change | state not kept`, so that the rules
 * about restarts report the same one. Nothing is judged when no collection existed before.
 */
export function judgeRestart(before: State, listed: readonly SeenUser[]): Disagreement[] {
  if (!before.collection) return [];
  const lost = Object.values(before.users).filter((u) => !listed.some((seen) => sameUser(u, seen)));
  const known = new Set(Object.keys(before.users));
  const back = before.complete ? listed.filter((u) => !known.has(u.id)) : [];
  if (!lost.length && !back.length) return [];
  const parts = [
    ...(lost.length ? [`no longer holds ${lost.map(showUser).join(', ')}`] : []),
    ...(back.length ? [`holds ${back.map(showUser).join(', ')} again, which it did not hold before`] : []),
  ];
  return [
    named(
      'stateNotKept',
      `after a restart the service ${parts.join(', and ')}: the collection should survive a restart as it was`,
    ),
  ];
}
