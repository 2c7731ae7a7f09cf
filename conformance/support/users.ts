/**
 * Shared steps of the section A rules.
 *
 * On a shared target the collection holds whatever other rules, other runs or other clients left
 * there: a rule judges only the users it created (`listed`, `expectStored`, `expectAbsent`), never the
 * rest of the list. A rule that must judge the list as a whole, or that sends invalid input whose
 * leftovers could reach other rules, runs on an instance of its own when the suite can start one
 * (`isolated`).
 */
import { expect } from '@playwright/test';
import { apply, judgeHeld, type Operation, type State, sameUser, sharedState } from '../model/index.ts';
import { childText, elements, type XmlDocument, type XmlElement } from '../model/xml.ts';
import { ExchangeFailure } from './failures.ts';
import {
  type Api,
  expectOn,
  expectSuccess,
  type Reply,
  randomId,
  randomText,
  resultOf,
  sameId,
  show,
  type User,
  userOf,
  xmlOf,
} from './http.ts';
import { modelOf, observed } from './judged.ts';
import { ensureUser, type Step, step } from './judged-users.ts';
import { lying } from './liars.ts';
import { type RuleContext, SetupError } from './rule.ts';
import { resolvedTarget } from './target.ts';

export type NewUser = {
  id: number;
  name: string;
  profession: string;
};

export function newUser(prefix = 'conf'): NewUser {
  return { id: randomId(), name: randomText(`${prefix}-name`), profession: randomText(`${prefix}-prof`) };
}

/**
 * An instance whose collection only this rule writes: a fresh one when the suite has a start command,
 * else the shared target (`fresh: false`: judge only your own users there).
 */
export async function isolated(ctx: RuleContext): Promise<{ api: Api; fresh: boolean }> {
  if (resolvedTarget().noFreshReason) return { api: ctx.api, fresh: false };
  return { api: (await ctx.fresh()).api, fresh: true };
}

/** Deletes a user of the rule; a 5xx (or no answer) means the rule leaves data behind: it throws. */
export async function removeUser(api: Api, id: number | string): Promise<void> {
  const reply = await api.del(id);
  // A failure result (nothing to remove), whatever its status: HTTP-01 judges the status, not the cleanup.
  if (reply.status >= 500 && observed(reply).body.kind === 'result') return;
  if (reply.status >= 500)
    throw new ExchangeFailure(
      `DELETE of user ${id} (the rule's own) answered ${show(reply)}`,
      reply.exchange,
    );
}

/** Registers the removal of a user id the rule writes (a failed removal is reported against the rule). */
export function ownId<T extends number | string>(ctx: RuleContext, id: T, api: Api = ctx.api): T {
  ctx.cleanup(() => removeUser(api, id));
  return id;
}

/**
 * Creates a user for a rule that is about something else; deleted after the rule. Judged through the
 * model (support/judged.ts): a wrong answer or effect is a finding of the rule, and the rule goes on as
 * long as the user is stored. When PUT does not store it, POST is tried (the other write verb); only
 * when neither does is the rule not set up.
 */
export async function givenUser(
  ctx: RuleContext,
  api: Api = ctx.api,
  user: NewUser = newUser(),
): Promise<NewUser> {
  ownId(ctx, user.id, api);
  const { stored, steps } = await ensureUser(api, user);
  if (!stored) {
    const reply = (steps[0] as Step).reply;
    let outcome: string;
    try {
      outcome = `${show(reply)} (${resultOf(reply)})`;
    } catch (err) {
      // The cause, as the expectation names it (another representation, a 5xx, ...).
      outcome = (err as Error).message.split('\n')[0] as string;
    }
    throw new SetupError(
      `PUT of user ${user.id}`,
      `${outcome}; POST did not store it either`,
      reply.exchange,
      steps.flatMap((s) => s.found),
    );
  }
  return user;
}

/**
 * A user of the rule's own (givenUser), then updated by a POST sent alone and judged through the model.
 * For the rules about what an update does in one case (a text, an id's writing, a race): when updates
 * do nothing at all, such a rule fails by the model's finding (`POST (existing id) | state-change |
 * unchanged`), the defect the other rules name, and not under a name of its own. Returns the user as
 * the read-back showed it: updated, else as it was.
 */
export async function givenUpdatedUser(ctx: RuleContext, api: Api = ctx.api): Promise<NewUser> {
  const user = await givenUser(ctx, api);
  const update = { ...user, name: `${user.name}-upd`, profession: `${user.profession}-upd` };
  const done = await step(api, { kind: 'post', user: update });
  const id = String(user.id);
  return sameUser({ ...update, id }, done.readBack?.[id]) ? update : user;
}

/** An id nobody has, with the cleanup in case the implementation creates it anyway. */
export function unknownId(ctx: RuleContext, api: Api = ctx.api): number {
  return ownId(ctx, randomId(), api);
}

export interface Listing {
  reply: Reply;
  doc: XmlDocument;
  /** The user elements with exactly one id, name and profession. */
  users: User[];
  /** The other user elements (a missing or repeated id, name or profession). */
  broken: XmlElement[];
}

/**
 * GET of the list, read without judging what the rule did not write: a user element of somebody else
 * that lacks a field is set aside in `broken`, not a failure (Api.listUsers is the strict reading, for
 * instances of the rule's own).
 */
export async function readListing(api: Api): Promise<Listing> {
  const reply = await api.get('/UserService/users');
  expectSuccess(reply, 'the list');
  const doc = xmlOf(reply);
  const users: User[] = [];
  const broken: XmlElement[] = [];
  for (const element of doc.root.name === 'user' ? [doc.root] : elements(doc.root, 'user')) {
    const user = userOf(element);
    if (user) users.push(user);
    else broken.push(element);
  }
  return { reply, doc, users, broken };
}

/** The list's user elements carrying this id: the readable ones, and how many lack a field. */
export async function listed(
  api: Api,
  id: number | string,
): Promise<{ reply: Reply; users: User[]; broken: number }> {
  const { reply, users, broken } = await readListing(api);
  return {
    reply,
    users: users.filter((u) => sameId(u.id, id)),
    broken: broken.filter((e) => sameId(childText(e, 'id') ?? '', id)).length,
  };
}

/** The situation a write answering `outcome` is in, as the model names it (`PUT (new id)`). */
const SITUATION: Record<string, Record<'success' | 'failure', Operation>> = {
  PUT: {
    success: { kind: 'put', user: { id: 0, name: '', profession: '' } },
    failure: { kind: 'put', user: { id: 0, name: '', profession: '' } },
  },
  POST: {
    success: { kind: 'post', user: { id: 0, name: '', profession: '' } },
    failure: { kind: 'post', user: { id: 0, name: '', profession: '' } },
  },
  DELETE: { success: { kind: 'delete', id: 0 }, failure: { kind: 'delete', id: 0 } },
};

/**
 * The answer of a write the rule sent itself is the result `outcome`: judged through the model (media
 * type, result word); a disagreement is a finding of the rule (it fails at its end), and the rule goes on.
 */
export function expectOutcome(reply: Reply, outcome: 'success' | 'failure', api: Api): void {
  const op = SITUATION[reply.method]?.[outcome];
  if (!op) {
    expectOn(reply, resultOf(reply)).toBe(outcome);
    return;
  }
  // A state in which the write has the situation the rule says: the id exists for a success of POST or
  // DELETE and a failure of PUT.
  const exists = (reply.method === 'PUT') === (outcome === 'failure');
  const users: State['users'] = exists ? { '0': { id: '0', name: 'x', profession: 'y' } } : {};
  const state: State = { ...sharedState(), users };
  const { expected } = apply(state, op);
  const model = modelOf(api.log);
  const judged = judgeHeld(model.choices, expected, observed(reply));
  model.choices = judged.choices;
  model.add(judged.disagreements, reply);
}

export function expectSameUser(actual: User | undefined, expected: NewUser, what: string): void {
  expect(actual, `${what}: user ${expected.id} is not served`).toBeDefined();
  expect({ name: actual?.name, profession: actual?.profession }, what).toEqual({
    name: expected.name,
    profession: expected.profession,
  });
}

/** Reads the user back through GET by id and through the list. */
export async function expectStored(api: Api, user: NewUser, what: string): Promise<void> {
  expectSameUser(await api.readUser(user.id), user, `${what} (GET by id)`);
  // The list known to lie about the users it holds (support/readers.ts): GET by id tells.
  if (lying('GET list')) return;
  const found = await listed(api, user.id);
  expectOn(
    found.reply,
    found.broken,
    `${what}: user elements with id ${user.id} lacking a name or profession`,
  ).toBe(0);
  expect(found.users.length, `${what}: times user ${user.id} appears in the list`).toBe(1);
  expectSameUser(found.users[0], user, `${what} (list)`);
}

export async function expectAbsent(api: Api, id: number | string, what: string): Promise<void> {
  expect(await api.readUser(id), `${what}: GET by id still serves user ${id}`).toBeUndefined();
  // The list known to lie about the users it holds (support/readers.ts): GET by id tells.
  if (lying('GET list')) return;
  const found = await listed(api, id);
  expectOn(found.reply, found.users.length + found.broken, `${what}: user ${id} is still in the list`).toBe(
    0,
  );
}
