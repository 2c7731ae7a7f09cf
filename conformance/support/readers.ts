/**
 * Which reader lies, established once per worker before the rules depend on the readers (issue 45):
 * the list is read; seven users are written (one with the suite's long ids, the others shorter; one
 * with a name outside ASCII, two with one name) and one of them removed, both readers read right after;
 * two are changed by POST, one of
 * them read by id before, the other read by id and in the list right after; a user more is written, and
 * all are read back through GET by id, the list and HEAD of the list. On an instance of the check's own
 * when the suite can start one (else on the target: the users are the check's own, removed after it).
 * model/readers.ts names the reader that lies.
 *
 * Once one lies, the rules read state through the one that does not (support/judged-users.ts readBack,
 * Api.readUser, support/users.ts expectStored/expectAbsent); the rule about that reader fails with the
 * named defect (OWN_RULE), and a rule that failed reading through the liar only is reported as
 * `could not check: <defect>` (support/rule.ts), not as a failure of its own. The explorer adopts the
 * same verdict (explore/explore.ts): it names each liar once, with the check's requests as evidence, and
 * reads through the reader that does not lie.
 */
import type { APIRequestContext } from '@playwright/test';
import {
  type Liar,
  lyingReaders,
  NAMED_DEFECTS,
  type Reader,
  type ReaderDefect,
  type ReadsBetween,
  type SeenUser,
  servedOrNone,
  servedUsers,
} from '../model/index.ts';
import { COULD_NOT_CHECK } from '../report/summary.ts';
import type { Exchange } from './exchange.ts';
import { Api, type Reply, randomId, randomText } from './http.ts';
import { observed } from './judged.ts';
import { liars, setLiars } from './liars.ts';
import { resolvedTarget, startFreshInstance } from './target.ts';

/** The rule that is about each lying reader's defect: it fails with that defect. */
export const OWN_RULE: Record<ReaderDefect, string> = {
  getServesAnotherUser: 'USR-GET-01',
  // A read right after a change is what the freshness rule is about.
  getStale: 'USR-FRESH-01',
  listShowsDeleted: 'USR-LIST-02',
  listMissesLongIds: 'USR-LIST-02',
  listMissesNonAscii: 'USR-LIST-02',
  listOnePerName: 'USR-LIST-02',
  // A read right after a change is what the freshness rule is about.
  listStale: 'USR-FRESH-01',
  listStaleAfterPost: 'USR-FRESH-01',
  headListStatus: 'USR-HEAD-02',
};

/** The answer of the reader that showed each liar. */
const replies = new Map<Reader, Reply>();
let checked: Promise<void> | undefined;

/** The liars whose rule `ruleId` is (OWN_RULE), each with the answer that showed it. */
export function ownLiars(ruleId: string): Array<{ found: Liar['found']; reply: Reply }> {
  return liars().flatMap((liar) => {
    const reply = OWN_RULE[liar.defect] === ruleId ? replies.get(liar.reader) : undefined;
    return reply ? [{ found: liar.found, reply }] : [];
  });
}

/** The reader a request reads through, if it is one. */
export function readerOf(exchange: Pick<Exchange, 'request'>): Reader | undefined {
  const { method } = exchange.request;
  const path = new URL(exchange.request.url, 'http://x').pathname.replace(/\/+$/, '');
  if (path === '/UserService/users')
    return method === 'GET' ? 'GET list' : method === 'HEAD' ? 'HEAD list' : undefined;
  if (method === 'GET' && path.startsWith('/UserService/users/')) return 'GET by id';
  return undefined;
}

/** `could not check: <the defect's title>`: the rule could only be judged through a lying reader. */
export const couldNotCheck = (liar: Liar): string =>
  `${COULD_NOT_CHECK}${(NAMED_DEFECTS[liar.defect] as { title?: string }).title ?? liar.found.message}`;

/** Where the check runs: an instance of its own when one can be had (`fresh`), else `baseUrl`. */
export interface CheckTarget {
  baseUrl: string;
  fresh?: () => Promise<{ url: string; stop(): Promise<unknown> }>;
}

/** The suite's target (support/target.ts): the rules', and the exploration rules'. */
function suiteTarget(): CheckTarget {
  const target = resolvedTarget();
  return {
    baseUrl: target.baseUrl,
    ...(target.noFreshReason ? {} : { fresh: () => startFreshInstance() }),
  };
}

/**
 * Runs the check once per worker (the rules', the exploration rules' and the explore command's: each
 * reads and names the liars through support/liars.ts); a check that cannot run names no liar.
 */
export function checkReaders(request: APIRequestContext, where: CheckTarget = suiteTarget()): Promise<void> {
  checked ??= runCheck(request, where).then(
    ({ found, exchanges }) => {
      for (const { reply, ...liar } of found) replies.set(liar.reader, reply);
      setLiars(
        found.map(({ reply: _reply, ...liar }) => liar),
        exchanges,
      );
    },
    () => setLiars([], []),
  );
  return checked;
}

/** What the readers showed between two writes: GET by id of `id` (when readable as a user or none), the list. */
const readsBetween = (
  id: number,
  served: SeenUser | null | undefined,
  listed: SeenUser[] | undefined,
): ReadsBetween => ({
  byId: served === undefined ? {} : { [String(id)]: served },
  ...(listed ? { listed } : {}),
});

async function runCheck(
  request: APIRequestContext,
  where: CheckTarget,
): Promise<{ found: Array<Liar & { reply: Reply }>; exchanges: readonly Exchange[] }> {
  const instance = where.fresh ? await where.fresh().catch(() => undefined) : undefined;
  try {
    const api = new Api(request, instance?.url ?? where.baseUrl);
    // The list before the writes: a list that caches its answer serves this one again after them.
    const listedBefore = servedUsers(observed(await api.get('/UserService/users')));
    const taken = new Set(listedBefore?.map((u) => u.id));
    // Users with a shorter id than the suite's: a list that leaves out long ids still shows these.
    const shortId = () => {
      let id = 0;
      do id = 100_000_000 + Math.floor(Math.random() * 900_000_000);
      while (taken.has(String(id)));
      taken.add(String(id));
      return id;
    };
    const user = (id: number, name = randomText('readers-name')) => ({
      id,
      name,
      profession: randomText('readers-prof'),
    });
    // Two users changed by POST, short ids (a list that leaves out long ids shows them): `kept` read by id
    // and in the list before its POST, `fresh` in the list only. A reader that keeps what it last served
    // (renewed by PUT and DELETE only) shows `kept` unchanged after the POST; GET by id reading `fresh` first
    // after its POST has no copy to keep, so it shows whether the POSTs take effect. Names changed,
    // professions kept: a POST that changes the name only changes what these do.
    const kept = user(shortId());
    const fresh = user(shortId());
    // A long id, the suite's kind: a list that leaves out long ids leaves this one out.
    const long = user(randomId());
    const short = user(shortId());
    // A name outside ASCII, with a short id: a list that leaves it out does so for its text alone. No
    // space: a form decoder that keeps "+" for one would store another name, and no reader could agree.
    const nonAscii = user(shortId(), `${randomText('readers-name')}-Zoë-Ångström`);
    // The name of `short`, another profession, written after it: a list keyed by name leaves it out.
    const sameName = user(shortId(), short.name);
    // A short id too: a list that leaves out long ids would not show it, removed or not.
    const removed = user(shortId());
    // Written after the POSTs and their reads: a write of another user, which renews a reader kept until
    // the next PUT or DELETE, and brings a write whose effect comes only with the next write
    // (model/late.ts), so that both readers are compared on the same state.
    const next = user(shortId());
    const users = [kept, fresh, long, short, nonAscii, sameName, removed];
    type Written = { id: number | string; name: string; profession: string };
    // `kept` changed last: where writes act on the first user of the list (once the DELETE took the one
    // before, the check's first PUT, `kept`), both POSTs land on it and it still ends as its own POST says.
    let posted: Written[] = [fresh, kept];
    let borrowed: Written | undefined;
    try {
      for (const user of users) await api.put(user);
      // The list read before the DELETE and right after it, with GET by id of the user removed: a list
      // kept until the next PUT or POST still shows it, where GET by id no longer serves it (a DELETE
      // made only at the next write shows through both).
      await api.get('/UserService/users');
      await api.del(removed.id);
      const removedRead = servedOrNone(observed(await api.get(`/UserService/users/${removed.id}`)));
      const keptRead = servedOrNone(observed(await api.get(`/UserService/users/${kept.id}`)));
      const listedThen = servedUsers(observed(await api.get('/UserService/users')));
      // Where the PUTs stored nothing (neither reader shows `kept`), a user listed before takes `kept`'s
      // part, its fields put back after on a shared target: a reader's lie after a POST still shows.
      const first = listedBefore?.[0];
      if (
        keptRead === null &&
        !listedThen?.some((u) => u.id === String(kept.id)) &&
        first?.name !== undefined
      )
        borrowed = { id: first.id, name: first.name, profession: first.profession ?? '' };
      if (borrowed) {
        posted = [borrowed];
        await api.get(`/UserService/users/${borrowed.id}`);
      }
      const changed = posted.map((u) => ({ ...u, name: `${u.name}-post` }));
      for (const user of changed) await api.post(user);
      const firstRead = borrowed
        ? undefined
        : servedOrNone(observed(await api.get(`/UserService/users/${fresh.id}`)));
      const listedAfterPost = servedUsers(observed(await api.get('/UserService/users')));
      await api.put(next);
      users.push(next);
      const read: Written[] = [...users, ...(borrowed ? [borrowed] : [])];
      const byIdReplies: Record<string, Reply> = {};
      const byId: Record<string, SeenUser | null> = {};
      for (const user of read) {
        const reply = await api.get(`/UserService/users/${user.id}`);
        const seen = observed(reply);
        byIdReplies[String(user.id)] = reply;
        // Only an answer the model reads as a user, or no user, says what GET by id serves.
        const served = servedOrNone(seen);
        if (served !== undefined) byId[String(user.id)] = served;
      }
      // Users listed before (a few): a DELETE that removed one of them instead of its own shows here.
      const byIdBefore: Record<string, SeenUser | null> = {};
      for (const { id } of listedBefore?.slice(0, 5) ?? []) {
        const served = servedOrNone(observed(await api.get(`/UserService/users/${id}`)));
        if (served !== undefined) byIdBefore[id] = served;
      }
      const list = await api.get('/UserService/users');
      const head = await api.send('HEAD', '/UserService/users');
      const listed = servedUsers(observed(list));
      const found = lyingReaders({
        expected: {
          ...Object.fromEntries(
            // As written, then as the POSTs changed them.
            [kept, fresh, long, short, nonAscii, sameName, next, ...changed].map((u) => [
              String(u.id),
              { ...u, id: String(u.id) },
            ]),
          ),
          [String(removed.id)]: null,
        },
        before: Object.fromEntries(posted.map((u) => [String(u.id), { ...u, id: String(u.id) }])),
        afterPost: readsBetween(fresh.id, firstRead, listedAfterPost),
        afterDelete: readsBetween(removed.id, removedRead, listedThen),
        byId,
        byIdBefore,
        ...(listed ? { listed } : {}),
        ...(listedBefore ? { listedBefore } : {}),
        listStatus: list.status,
        headStatus: head.status,
      });
      const shownBy: Record<Reader, Reply> = {
        'HEAD list': head,
        'GET list': list,
        'GET by id': byIdReplies[String((borrowed ?? kept).id)] as Reply,
      };
      return {
        found: found.map((liar) => ({ ...liar, reply: shownBy[liar.reader] })),
        // The check's own requests: its cleanup on a shared target (below) is not part of what it showed.
        exchanges: [...api.log.exchanges],
      };
    } finally {
      if (!instance) {
        for (const user of users) await api.del(user.id).catch(() => undefined);
        if (borrowed) await api.post(borrowed).catch(() => undefined);
      }
    }
  } finally {
    await instance?.stop().catch(() => undefined);
  }
}
