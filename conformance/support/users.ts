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
import {
  type Api,
  decodeBody,
  type Reply,
  randomId,
  randomText,
  resultOf,
  sameId,
  show,
  type User,
  userOf,
} from './http.ts';
import { type RuleContext, SetupError } from './rule.ts';
import { resolvedTarget } from './target.ts';
import { childText, elements, parseXml, type XmlDocument, type XmlElement } from './xml.ts';

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
  if (reply.status >= 500) throw new Error(`DELETE of user ${id} (the rule's own) answered ${show(reply)}`);
}

/** Registers the removal of a user id the rule writes (a failed removal is reported against the rule). */
export function ownId<T extends number | string>(ctx: RuleContext, id: T, api: Api = ctx.api): T {
  ctx.cleanup(() => removeUser(api, id));
  return id;
}

/** Creates a user for a rule that is about something else; deleted after the rule. */
export async function givenUser(
  ctx: RuleContext,
  api: Api = ctx.api,
  user: NewUser = newUser(),
): Promise<NewUser> {
  ownId(ctx, user.id, api);
  const reply = await api.put(user);
  let outcome: string;
  try {
    outcome = resultOf(reply);
  } catch {
    outcome = 'no result element';
  }
  if (outcome !== 'success') throw new SetupError(`PUT of user ${user.id}`, `${show(reply)} (${outcome})`);
  return user;
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
  expect(reply.status, show(reply)).toBeGreaterThanOrEqual(200);
  expect(reply.status, show(reply)).toBeLessThan(300);
  let doc: XmlDocument;
  try {
    doc = parseXml(decodeBody(reply));
  } catch (err) {
    throw new Error(`not well-formed XML: ${(err as Error).message}\n${show(reply)}`);
  }
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

export function expectOutcome(reply: Reply, outcome: 'success' | 'failure'): void {
  expect(resultOf(reply), show(reply)).toBe(outcome);
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
  const found = await listed(api, user.id);
  expect(
    found.broken,
    `${what}: user elements with id ${user.id} lacking a name or profession: ${show(found.reply)}`,
  ).toBe(0);
  expect(found.users.length, `${what}: times user ${user.id} appears in the list`).toBe(1);
  expectSameUser(found.users[0], user, `${what} (list)`);
}

export async function expectAbsent(api: Api, id: number | string, what: string): Promise<void> {
  expect(await api.readUser(id), `${what}: GET by id still serves user ${id}`).toBeUndefined();
  const found = await listed(api, id);
  expect(
    found.users.length + found.broken,
    `${what}: user ${id} is still in the list: ${show(found.reply)}`,
  ).toBe(0);
}
