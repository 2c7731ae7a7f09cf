/**
 * Which reader lies (issue 45): the suite reads state through GET by id, the list and HEAD of the list,
 * and a rule judged through a reader that lies about the state blames the writes, or the other reader,
 * for it. Before the rules depend on them, a check (support/readers.ts) reads the list, writes five
 * users (ids of two lengths, one name outside ASCII, two of one name), removes one, and reads them
 * through every reader; this pure judgement names the reader that lies, if one does, by the cause its
 * answers show.
 *
 * Where the readers disagree, the model tells the liar: the reader that disagrees both with the other
 * reader and with the state the model expects lies. Where both disagree with the model the same way,
 * no reader lies (the write did something else: the write rules judge that); where each disagrees in
 * its own way, or a disagreement has a shape not named here, nothing is named and the rules judge as
 * before.
 */
import { type DefectName, named } from './named-defects.ts';
import { is2xx, type SeenUser } from './observe.ts';
import type { Disagreement } from './signature.ts';
import type { ModelUser } from './state.ts';
import { sameUser, showUser } from './users.ts';

export type Reader = 'GET by id' | 'GET list' | 'HEAD list';

/** What the readers showed between two of the check's writes: GET by id of some users, and the list. */
export interface ReadsBetween {
  byId: Readonly<Record<string, SeenUser | null>>;
  listed?: readonly SeenUser[];
}

/** What the readers answered, after the check's writes. */
export interface ReaderAnswers {
  /** The users the check wrote, as the model expects them after its writes: a user, or null (removed). */
  expected: Readonly<Record<string, ModelUser | null>>;
  /**
   * Users the check changed by POST, as they were before it (a reader that keeps what it last served shows
   * these): some read by id before their POST, others first read by id right after it.
   */
  before?: Readonly<Record<string, ModelUser>>;
  /**
   * What the readers showed right after the POSTs, before any other write: GET by id of the users changed
   * that it had not served before (a first read: no copy to keep), and the list. A reader renewed only by
   * PUT and DELETE shows the POSTs here and no longer after the check's next write (of another user).
   */
  afterPost?: ReadsBetween;
  /**
   * What the readers showed right after the DELETE, before any other write (the list read before it
   * too): GET by id of the user removed, and the list. A list kept until the next PUT or POST shows the
   * user here, and no longer at the end.
   */
  afterDelete?: ReadsBetween;
  /** What GET by id served for each of those ids: a user (whatever its id), or null when none. */
  byId: Readonly<Record<string, SeenUser | null>>;
  /** The list's users; undefined when the list was not readable. */
  listed?: readonly SeenUser[];
  /** The list's users before the check's writes (so that a cache has something to serve); undefined when not readable. */
  listedBefore?: readonly SeenUser[];
  /**
   * What GET by id served, after the writes, for users the list showed before them (the check's writes
   * do not address them): a user, or null when none.
   */
  byIdBefore?: Readonly<Record<string, SeenUser | null>>;
  /** Statuses of GET and of HEAD of the list, sent one after the other. */
  listStatus: number;
  headStatus: number;
}

/** The defects of a lying reader, each named here and judged once by the check. */
export type ReaderDefect = Extract<
  DefectName,
  | 'getServesAnotherUser'
  | 'getStale'
  | 'listShowsDeleted'
  | 'listStale'
  | 'listStaleAfterPost'
  | 'listMissesLongIds'
  | 'listMissesNonAscii'
  | 'listOnePerName'
  | 'headListStatus'
>;

export interface Liar {
  reader: Reader;
  defect: ReaderDefect;
  /** The named defect, in the words of what the check saw. */
  found: Disagreement;
}

/**
 * Whether the list shows the user `id` as `user` (once, with those fields), or, for null, not at all: the
 * one cross-check of GET by id against the list (the rules' read-back, the explorer's, this check).
 */
export function listShows(
  listed: readonly SeenUser[],
  id: string,
  user: { name?: string; profession?: string } | null,
): boolean {
  const inList = listed.filter((u) => u.id === id);
  return user ? inList.length === 1 && sameUser({ ...user, id }, inList[0]) : inList.length === 0;
}

/** Whether `seen` is what the model expects of `id`: that user, or nothing. */
const agrees = (want: ModelUser | null, seen: SeenUser | null | undefined): boolean =>
  want ? !!seen && seen.id === want.id && sameUser(want, seen) : !seen;

/** What a read's disagreements say of the users it shows (not of its answer's form). */
export const SHOWN_STATE: ReadonlySet<string> = new Set([
  'state-change',
  'default-user',
  'other-record-touched',
]);

/**
 * What a lying reader's answers show of its lie, by the aspect of a read's disagreement: of the users it
 * shows (GET by id, the list), of its status and the headers that come with it (HEAD of the list). Its
 * answer's form otherwise stays judged (an unreadable list, a body after HEAD).
 */
const LIE_SHOWN: Record<Reader, ReadonlySet<string>> = {
  'GET by id': SHOWN_STATE,
  'GET list': SHOWN_STATE,
  'HEAD list': new Set(['status', 'media-type']),
};

/**
 * The liar whose lie `d`, a disagreement of a read through `reader`, is (its aspect is what the lie
 * shows): judged once by the check, not again by each read through that reader (the explorer's steps).
 */
export const lieOf = (
  liars: readonly Liar[],
  reader: Reader | undefined,
  d: Pick<Disagreement, 'signature'>,
): Liar | undefined =>
  reader === undefined
    ? undefined
    : liars.find((l) => l.reader === reader && LIE_SHOWN[reader].has(d.signature.aspect));

/**
 * The readers that lie, each with its defects: a reader may lie in two ways at once (GET by id serving
 * another user and a stale copy; the list stale after a POST and showing deleted users), each named once.
 */
export function lyingReaders(answers: ReaderAnswers): Liar[] {
  const out: Liar[] = [];
  const { expected, byId, listed } = answers;
  const add = (reader: Reader, defect: ReaderDefect, message: string) => {
    if (!out.some((l) => l.defect === defect)) out.push({ reader, defect, found: named(defect, message) });
  };
  // HEAD answers what GET of the list answers: a 2xx GET and another status for HEAD is HEAD's own.
  if (is2xx(answers.listStatus) && answers.headStatus !== answers.listStatus)
    add(
      'HEAD list',
      'headListStatus',
      `HEAD /UserService/users answered ${answers.headStatus} where GET of the list answered ${answers.listStatus}: HEAD answers the status and headers of GET`,
    );
  if (!listed) return out;
  const postShown = postTookEffect(answers);
  for (const [id, want] of Object.entries(expected)) {
    const listAgrees = listShows(listed, id, want);
    const served = byId[id];
    if (served === undefined) continue;
    const byIdAgrees = agrees(want, served);
    // GET by id serves another user than the one its id names: where the list shows the user as written,
    // or (whatever the list shows) a user of another id, which no state explains.
    const anotherId = !!served && served.id !== id;
    // Or, with its own id, the user as it was before the check's POST changed it (a copy kept): stale,
    // where the list shows the POST made, or a user first read by id after its POST does.
    const was = answers.before?.[id];
    const stale = !!was && !!served && !anotherId && sameUser(was, served) && (listAgrees || postShown);
    if (want && served && stale)
      add(
        'GET by id',
        'getStale',
        `GET /UserService/users/${id} serves ${showUser(served)}, as it was before a POST changed it, where ${listAgrees ? 'the list shows' : 'another user changed alike, read by id first after its POST, shows its change; the POST wrote'} ${showUser(want)}`,
      );
    if (want && served && !stale && !byIdAgrees && (listAgrees || anotherId))
      add(
        'GET by id',
        'getServesAnotherUser',
        `GET /UserService/users/${id} serves ${showUser(served)}, where the list shows ${showUser(want)} as written`,
      );
    // The list shows a user that DELETE removed and GET by id no longer serves.
    const inList = listed.filter((u) => u.id === id);
    if (!want && inList.length && byIdAgrees)
      add(
        'GET list',
        'listShowsDeleted',
        `GET list still shows ${showUser(inList[0] as SeenUser)} after its DELETE answered success, where GET by id no longer serves it`,
      );
  }
  // Right after the DELETE: the list shows the user removed, where GET by id, then, serves none.
  for (const [id, served] of Object.entries(answers.afterDelete?.byId ?? {})) {
    const shown = answers.afterDelete?.listed?.find((u) => u.id === id);
    if (expected[id] === null && served === null && shown)
      add(
        'GET list',
        'listShowsDeleted',
        `GET list, read right after the DELETE of user ${id} answered success, still shows ${showUser(shown)}, where GET by id then no longer serves it`,
      );
  }
  const byIdServesAnother = out.some((l) => l.defect === 'getServesAnotherUser');
  const afterPost = listStaleAfterPost(answers, byIdServesAnother);
  if (afterPost) add('GET list', 'listStaleAfterPost', afterPost);
  const hit = deleteHitAnother(answers, byIdServesAnother);
  if (hit) add('GET list', 'listShowsDeleted', hit);
  // Why the list leaves out users: a list may show deleted users and leave out others too.
  for (const leftOut of leavesOut(answers, byIdServesAnother)) out.push({ reader: 'GET list', ...leftOut });
  return out;
}

/**
 * Whether GET by id, reading a user for the first time right after the POST that changed it, serves the
 * POST made: the POST takes effect (what a copy kept by an earlier read would hide).
 */
function postTookEffect({ expected, afterPost }: ReaderAnswers): boolean {
  return Object.entries(afterPost?.byId ?? {}).some(([id, served]) => {
    const want = expected[id];
    return !!want && agrees(want, served);
  });
}

/**
 * The list shows a user as it was before its POST, right after the POSTs or at the end, where GET by id
 * serves the POST made (reading it first right after the POST, or at the end); or, with GET by id known to
 * serve another user, where the list itself shows the POST made after the check's next write (of
 * another user): that write renewed it.
 */
function listStaleAfterPost(answers: ReaderAnswers, byIdServesAnother: boolean): string | undefined {
  const { expected, before, afterPost, byId, listed } = answers;
  for (const [id, was] of Object.entries(before ?? {})) {
    const want = expected[id];
    if (!want || sameUser(was, want)) continue;
    const showsWas = (inList: readonly SeenUser[] | undefined) => !!inList && listShows(inList, id, was);
    if (byIdServesAnother) {
      if (showsWas(afterPost?.listed) && listed && listShows(listed, id, want))
        return `GET list shows ${showUser(was)}, as it was before a POST changed it, until a PUT of another user: then ${showUser(want)} as written`;
      continue;
    }
    const readThen = afterPost?.byId[id] ?? byId[id];
    if (
      (showsWas(afterPost?.listed) && agrees(want, readThen)) ||
      (showsWas(listed) && agrees(want, byId[id]))
    )
      return `GET list shows ${showUser(was)}, as it was before a POST changed it, where GET by id serves ${showUser(want)} as written`;
  }
  return undefined;
}

/**
 * The check's DELETE missed its own user (both readers still show it) and removed one listed before: GET
 * by id no longer serves that one, which the list still shows. GET by id, which agrees with the model
 * for every user the check wrote, tells what the DELETE did; the list shows a deleted user (a write that
 * hits another user is the write rules' finding). With GET by id known to serve another user, only
 * whether it serves one at all is taken from it (as throughBothLiars).
 */
function deleteHitAnother(answers: ReaderAnswers, byIdServesAnother: boolean): string | undefined {
  const { expected, byId, listed, byIdBefore } = answers;
  if (!listed || !byIdBefore) return undefined;
  const entries = Object.entries(expected);
  const stillShown = (id: string) =>
    byIdServesAnother ? listed.some((u) => u.id === id) : listShows(listed, id, byId[id] ?? null);
  const missed = entries.find(([id, want]) => !want && byId[id] && stillShown(id));
  // The users written and kept (not those changed by POST: a POST tells nothing of what the DELETE did).
  const keptAgree = entries.every(
    ([id, want]) =>
      !want || !!answers.before?.[id] || (byIdServesAnother ? !!byId[id] : agrees(want, byId[id])),
  );
  if (!missed || !keptAgree) return undefined;
  const gone = Object.entries(byIdBefore).find(
    ([id, served]) => served === null && listed.some((u) => u.id === id),
  );
  const shown = gone && listed.find((u) => u.id === gone[0]);
  if (!shown) return undefined;
  return `GET list still shows ${showUser(shown)}, which GET by id no longer serves after a DELETE (of user ${missed[0]}) answered success`;
}

const digits = (id: string): number => id.replace(/^-/, '').length;
/** Whether a user's name and profession are ASCII only. */
const ascii = (u: { name?: string; profession?: string }): boolean =>
  /^\p{ASCII}*$/u.test(`${u.name ?? ''}${u.profession ?? ''}`);
const sameIds = (a: readonly SeenUser[], b: readonly SeenUser[]): boolean =>
  a.length === b.length && a.every((u, i) => u.id === b[i]?.id);

/**
 * Why a list leaves out some users and shows others: what every user it leaves out for that cause has
 * and none it shows has (`explains`), and how the check saw it.
 */
interface Omission {
  defect: Extract<ReaderDefect, 'listMissesLongIds' | 'listMissesNonAscii' | 'listOnePerName'>;
  explains: (missing: ModelUser, shown: readonly ModelUser[]) => boolean;
  /** `held`: how GET by id showed the user held. */
  message: (missing: ModelUser, shown: readonly ModelUser[], held: string) => string;
}
const longestId = (users: readonly ModelUser[]) => Math.max(...users.map((u) => digits(u.id)));
const OMISSIONS: readonly Omission[] = [
  {
    defect: 'listMissesLongIds',
    explains: (missing, shown) => digits(missing.id) > longestId(shown),
    message: (missing, shown, held) => {
      const longest = shown.find((u) => digits(u.id) === longestId(shown));
      return `GET list leaves out ${showUser(missing)} (an id of ${digits(missing.id)} digits), which ${held}, and shows ${showUser(longest)} (${longestId(shown)} digits)`;
    },
  },
  {
    defect: 'listMissesNonAscii',
    explains: (missing, shown) => !ascii(missing) && shown.every(ascii),
    message: (missing, shown, held) =>
      `GET list leaves out ${showUser(missing)} (text outside ASCII), which ${held}, and shows ${showUser(shown[0])} (ASCII only)`,
  },
  {
    // A list keyed by name: it shows another user of that name, and no two users of one name.
    defect: 'listOnePerName',
    explains: (missing, shown) =>
      shown.some((u) => u.name === missing.name) && new Set(shown.map((u) => u.name)).size === shown.length,
    message: (missing, shown, held) =>
      `GET list leaves out ${showUser(missing)}, which ${held}, and shows ${showUser(shown.find((u) => u.name === missing.name))} (the same name)`,
  },
];

/**
 * Whether a list known to lie (`liars`, the check's) is still true of the users it shows: it lies only by
 * leaving out users for a cause of their own (OMISSIONS), which hides users and invents none (not a
 * second user with one id). Not so a stale list: it shows the users before the writes, so what it shows
 * is not what the write read back did (a user since changed shows its old fields). Nor a list showing
 * deleted users: one removed, shown beside the one written since with its id, looks like two.
 */
export function listShowsTruly(liars: readonly Liar[]): boolean {
  const omitting = new Set<ReaderDefect>(OMISSIONS.map((o) => o.defect));
  return liars.every((l) => l.reader !== 'GET list' || omitting.has(l.defect));
}

/**
 * The users a list true of those it shows (listShowsTruly) and GET by id show together: `served`, GET by
 * id's user, added where the list shows its id with other fields only (it left that user out, and shows
 * another with the id: two users with one id).
 */
export function shownTogether(shown: readonly SeenUser[], served: SeenUser | null | undefined): SeenUser[] {
  const withId = served ? shown.filter((u) => u.id === served.id) : [];
  return served && withId.length && !withId.some((u) => sameUser(u, served))
    ? [...shown, served]
    : [...shown];
}

/**
 * The list leaves out users written that GET by id serves as written (serves at all, when it is known
 * to serve another user), for a cause its answers show: it still answers the list it answered before
 * the writes (stale), or it leaves out users that each have what none it shows has (OMISSIONS: a
 * longer id, text outside ASCII, a name a user it shows has). Two causes at once are each named when
 * each alone explains a user left out. A list that leaves out users otherwise (a user no cause explains, or only causes another
 * user does not need) is not named: the rules judge it as before.
 */
function leavesOut(
  answers: ReaderAnswers,
  byIdServesAnother: boolean,
): Array<Pick<Liar, 'defect' | 'found'>> {
  const { expected, byId, listed, listedBefore } = answers;
  if (!listed) return [];
  // GET by id known to serve another user still tells whether it holds the id (as throughBothLiars).
  const served = Object.values(expected).filter(
    (want): want is ModelUser =>
      !!want && (byIdServesAnother ? !!byId[want.id] : agrees(want, byId[want.id])),
  );
  const missing = served.filter((want) => !listed.some((u) => u.id === want.id));
  if (!missing.length) return [];
  const held = byIdServesAnother
    ? 'GET by id holds (it serves a user for its id)'
    : 'GET by id serves as written';
  if (listedBefore && sameIds(listed, listedBefore))
    return [
      {
        defect: 'listStale',
        found: named(
          'listStale',
          `GET list answers the list it answered before the writes (${listed.length} users), leaving out ${missing.map(showUser).join(', ')}, which ${held}`,
        ),
      },
    ];
  const shown = served.filter((want) => listShows(listed, want.id, want));
  if (!shown.length) return [];
  const causes = missing.map((u) => OMISSIONS.filter((o) => o.explains(u, shown)));
  // A cause is named when some user left out has no other: then each user left out must have one named.
  const needed = OMISSIONS.filter((o) => causes.some((c) => c.length === 1 && c[0] === o));
  if (!causes.every((c) => c.some((o) => needed.includes(o)))) return [];
  return needed.map((o) => {
    const first = missing.find((_, i) => causes[i]?.includes(o)) as ModelUser;
    return { defect: o.defect, found: named(o.defect, o.message(first, shown, held)) };
  });
}

/**
 * The user `id` when both GET by id and the list lie (issue 45): each is trusted for what the check saw
 * it tell right. GET by id is named a liar only where the list showed the written users as written, and
 * the list (showing deleted users) only where GET by id served nothing for the removed one (lyingReaders):
 * so whether GET by id serves a user at all says whether the id is held, and the list's user of that id
 * says its fields (unless the list is stale: then they cannot tell the fields). Nothing else is trusted instead: HEAD of the list shows no user, and the write's own
 * answer is what is being judged. `served`: what GET by id served (any user), null for none, undefined when unreadable.
 * Returns the user, null (not held), or undefined: the two cannot tell (the rule does not judge it).
 */
export function throughBothLiars(
  id: string,
  served: SeenUser | null | undefined,
  listed: readonly SeenUser[] | undefined,
  /** The list's lie: a stale list shows fields as they were, so none of its fields is taken. */
  listLie?: ReaderDefect,
): SeenUser | null | undefined {
  if (served === undefined) return undefined;
  if (served === null) return null;
  if (listLie === 'listStale' || listLie === 'listStaleAfterPost') return undefined;
  const inList = listed?.filter((u) => u.id === id) ?? [];
  return inList.length === 1 ? inList[0] : undefined;
}
