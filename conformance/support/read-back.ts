/**
 * The reads the judged steps take the implementation's state from (support/judged-users.ts): a write's
 * users read back by GET by id and the list, cross-checked, or through the reader that does not lie
 * once the readers' check (support/readers.ts) found one lying; the list as a write met it; a user
 * observed after writes the model did not judge.
 */

import {
  canonicalId,
  disagreement,
  listShows,
  listShowsTruly,
  NAMED_DEFECTS,
  named,
  type Observed,
  type Operation,
  observeUsers,
  type ReadBack,
  type SeenUser,
  secondUserAdded,
  servedOrNone,
  servedUser,
  showUser,
  signatureKey,
} from '../model/index.ts';
import type { Api, Reply } from './http.ts';
import { modelOf, observed, type RuleModel, unreadable, usersIn } from './judged.ts';
import { liars, lying, throughBothReaders } from './liars.ts';

/**
 * Reads back the users `ids` by GET by id and through the list. Where the two disagree, GET by id is
 * taken for the user, and the list's omission is a finding of its own. A reader known to lie
 * (support/readers.ts) is not read: the other one is taken, and the two are not compared.
 */
export async function readBack(
  api: Api,
  model: RuleModel,
  ids: readonly string[],
  /** The ids a DELETE answered as removed: the model and GET by id against the list, the list lies. */
  removed: readonly string[] = [],
  /** The write read back: a PUT that added a second user with its id is judgeWrite's (secondUserAdded). */
  write?: Operation,
): Promise<{ back: ReadBack; listed?: SeenUser[]; shown?: SeenUser[] }> {
  const out: Record<string, SeenUser | null> = {};
  const byId: Record<string, SeenUser | null> = {};
  const getLies = !!lying('GET by id');
  const listLies = listLiesTo(model);
  if (getLies) return readBackByList(api, model, ids);
  for (const id of ids) {
    const reply = await api.get(`/UserService/users/${id}`);
    const seen = observed(reply);
    // Unreadable: the read is the defect, and the write's effect on this user cannot be judged.
    if (reply.status >= 200 && reply.status <= 299 && seen.body.kind === 'unreadable') {
      model.add([unreadable('GET by id', seen.body.problem)], reply);
      continue;
    }
    byId[id] = servedWithId(seen, id);
  }
  if (listLies) {
    // Every user the model knows by GET by id: the list does not tell a removed user from a kept one.
    for (const id of Object.keys(model.state(api.baseUrl).users))
      if (!(id in byId) && !ids.includes(id)) byId[id] = await servedById(api, id);
    // A list that only leaves users out is true of those it shows (a second user with the write's id).
    const shown = listOnlyOmits(model) ? await listSnapshot(api) : undefined;
    return shown ? { back: byId, shown } : { back: byId };
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
      !listShows(listed, id, got) &&
      !(write && secondUserAdded(model.state(api.baseUrl), write, id, listed))
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
          removed.includes(id)
            ? named(
                'listShowsDeleted',
                `GET list still shows ${showUser(inList[0])} after its DELETE answered success, where GET by id no longer serves it`,
              )
            : disagreement(
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

/**
 * The list is known to lie: by the readers' check (support/readers.ts), or to this rule, which saw it
 * show a user its DELETE removed (the check cannot tell when no user can be created to delete).
 */
export function listLiesTo(model: RuleModel): boolean {
  return !!lying('GET list') || showedDeleted(model);
}

function showedDeleted(model: RuleModel): boolean {
  const shown = signatureKey(NAMED_DEFECTS.listShowsDeleted.signature);
  return model.findings.some((f) => signatureKey(f.signature) === shown);
}

/** The list lies, but only by leaving users out: true of the users it shows (model listShowsTruly). */
const listOnlyOmits = (model: RuleModel): boolean =>
  !!lying('GET list') && !showedDeleted(model) && listShowsTruly(liars());

/** The user an answer of GET by id serves, when it has the id asked for; else null. */
export function servedWithId(seen: Observed, id: string): SeenUser | null {
  const user = servedUser(seen);
  return user && user.id === id ? user : null;
}

/** The user GET by id serves with that id, else null. */
async function servedById(api: Api, id: string): Promise<SeenUser | null> {
  return servedWithId(observed(await api.get(`/UserService/users/${id}`)), id);
}

/** What an answer of GET by id serves: a user (whatever its id), null for none, undefined when unreadable. */
export function servedAny(reply: Reply): SeenUser | null | undefined {
  return servedOrNone(observed(reply));
}

/**
 * The users `ids` when both readers lie (model throughBothLiars): whether GET by id serves one, and its
 * fields as the list shows them; an id the two cannot tell is left out (not judged).
 */
async function throughBoth(
  api: Api,
  listed: readonly SeenUser[],
  ids: readonly string[],
): Promise<Record<string, SeenUser | null>> {
  const out: Record<string, SeenUser | null> = {};
  for (const id of new Set(ids)) {
    const user = throughBothReaders(id, servedAny(await api.get(`/UserService/users/${id}`)), listed);
    if (user !== undefined) out[id] = user;
  }
  return out;
}

/** readBack when GET by id lies: every user as the list shows it (and as GET by id tells, when the list lies too). */
async function readBackByList(
  api: Api,
  model: RuleModel,
  ids: readonly string[],
): Promise<{ back: ReadBack; listed?: SeenUser[] }> {
  const list = await api.get('/UserService/users');
  const seen = observed(list);
  if (list.status >= 200 && list.status <= 299 && seen.body.kind === 'unreadable')
    model.add([unreadable('GET list', seen.body.problem)], list);
  if (list.status < 200 || list.status > 299 || seen.body.kind !== 'users') return { back: {} };
  const listed = seen.body.users;
  const all = [...ids, ...Object.keys(model.state(api.baseUrl).users)];
  // The list lies too: what it shows is not compared with other reads (the list is not `listed` here).
  if (lying('GET list')) return { back: await throughBoth(api, listed, all) };
  const out: Record<string, SeenUser | null> = {};
  for (const id of all) out[id] = listed.find((u) => u.id === id) ?? null;
  return { back: out, listed };
}

export async function listSnapshot(api: Api): Promise<SeenUser[] | undefined> {
  const reply = await api.get('/UserService/users');
  const seen = observed(reply);
  return reply.status >= 200 && reply.status <= 299 && seen.body.kind === 'users'
    ? seen.body.users
    : undefined;
}

/**
 * The first users of a list known to lie (it shows users it does not hold) as GET by id serves them:
 * the ones it holds, to tell which of them a POST or DELETE touched instead of its own. The first few
 * only: the first of the list is the one an equality that always holds meets.
 */
export async function heldByGet(api: Api, listed: readonly SeenUser[]): Promise<SeenUser[]> {
  const held: SeenUser[] = [];
  for (const { id } of listed.slice(0, 5)) {
    const user = await servedById(api, id);
    if (user) held.push(user);
  }
  return held;
}

/**
 * The model takes the user `id` as the implementation serves it (or its absence) after writes it did not
 * judge, such as a race: later steps are judged from there. Returns the read.
 */
export async function observeUser(api: Api, id: number | string): Promise<Reply> {
  const model = modelOf(api.log);
  const key = canonicalId(id) ?? '';
  if (lying('GET by id')) {
    // GET by id known to lie (support/readers.ts): the user as the list shows it.
    const { back } = await readBackByList(api, model, [key]);
    model.setState(api.baseUrl, observeUsers(model.state(api.baseUrl), { [key]: back[key] ?? null }));
    return api.get('/UserService/users');
  }
  const reply = await api.get(`/UserService/users/${key}`);
  const seen = observed(reply);
  const user =
    reply.status >= 200 && reply.status <= 299 && seen.body.kind === 'user' ? seen.body.user : null;
  model.setState(api.baseUrl, observeUsers(model.state(api.baseUrl), { [key]: user }));
  return reply;
}
