/**
 * The answers the spec allows for each operation, and the state it leaves: `apply(state, op)`. This is
 * where the suite's reading of each MUST statement of docs/SPEC.md sections A and B lives (the anchors
 * are named next to each case).
 */
import type { StatusChoice } from './choices.ts';
import type { Operation, UserForm } from './operations.ts';
import {
  appOf,
  canonicalId,
  created,
  type Domain,
  type ModelUser,
  type State,
  withApp,
  withoutUser,
  withUser,
} from './state.ts';

export type StatusRule =
  /** Any 2xx. */
  | { kind: 'success' }
  | { kind: 'exact'; statuses: readonly number[] }
  /** One of `statuses`, or anything but 2xx (the resource is no longer there: B-6). */
  | { kind: 'exact-or-not-served'; statuses: readonly number[] }
  /** Open: any status, held to the first one seen (choices.ts). */
  | { kind: 'choice'; choice: StatusChoice }
  /** Anything but 2xx: the resource is not served. */
  | { kind: 'not-served' }
  | { kind: 'any' };

export type BodyRule =
  | { kind: 'result'; word: 'success' | 'failure' }
  /** GET by id: this user (fields left open, such as the default user's, are not compared). */
  | { kind: 'user'; user: ModelUser }
  /** GET by id of an id no user has: open (A-R9), but no user is served. */
  | { kind: 'no-user'; id: string }
  /**
   * The list: every user the model knows, once; `exact` when the model knows the whole collection
   * (a fresh instance); the ids in `absent` must not appear.
   */
  | { kind: 'users'; users: readonly ModelUser[]; exact: boolean; absent: readonly string[] }
  | { kind: 'operations' }
  | { kind: 'none' }
  /** Section B: a 200/201 carries the whole resource (B-2), a 202 `{}` (B-3). */
  | { kind: 'domain'; domain?: Domain; hostname?: string }
  | { kind: 'created'; resource: 'domain' | 'worker'; hostname?: string }
  | { kind: 'empty-object' }
  | { kind: 'array' }
  | { kind: 'any' };

export interface Expected {
  op: Operation;
  /** The operation and its situation, as signatures name it: `PUT (new id)`, `DELETE (unknown id)`. */
  situation: string;
  status: StatusRule;
  /** Section A answers are `application/xml`; section B changes `application/json; charset=utf-8`. */
  media?: 'xml' | 'json';
  body: BodyRule;
  /** The user ids whose record the operation may change; every other known user stays as it was. */
  touches: readonly string[];
}

const ANY_ID_WRITING = (raw: string | number) => canonicalId(raw) ?? String(raw);

/** A field the form lacks is left to the implementation (stored with one, RES-USER-1, if at all: A-R11). */
const userOfForm = (form: UserForm): ModelUser => ({
  id: ANY_ID_WRITING(form.id),
  ...(form.name === undefined ? {} : { name: form.name }),
  ...(form.profession === undefined ? {} : { profession: form.profession }),
});

const result = (word: 'success' | 'failure'): Pick<Expected, 'status' | 'media' | 'body'> => ({
  status: { kind: 'choice', choice: word === 'success' ? 'successStatus' : 'failureStatus' },
  media: 'xml',
  body: { kind: 'result', word },
});

const listOf = (state: State, absent: readonly string[] = []): BodyRule => ({
  kind: 'users',
  users: Object.values(state.users),
  exact: state.complete,
  absent,
});

/** What the model expects of `op` on `state`, and the state it leaves. */
export function apply(state: State, op: Operation): { state: State; expected: Expected } {
  const expected = (
    situation: string,
    rest: Omit<Expected, 'op' | 'situation' | 'touches'>,
    touches: string[] = [],
  ) => ({
    op,
    situation,
    touches,
    ...rest,
  });
  switch (op.kind) {
    // SVC-10, SVC-3, A-R1.1: a read creates a missing collection, then serves it; it changes nothing else.
    case 'list': {
      const next = created(state);
      return {
        state: next,
        expected: expected(
          !state.collection
            ? 'GET list (first read)'
            : state.pristine
              ? 'GET list (fresh collection)'
              : 'GET list',
          {
            status: { kind: 'success' },
            media: 'xml',
            body: listOf(next),
          },
        ),
      };
    }
    case 'head-list': {
      const next = created(state);
      return {
        state: next,
        expected: expected('HEAD list', {
          status: { kind: 'success' },
          media: 'xml',
          body: { kind: 'none' },
        }),
      };
    }
    // A-R6, RES-OPS-1.
    case 'options':
      return {
        state,
        expected: expected('OPTIONS', {
          status: { kind: 'success' },
          media: 'xml',
          body: { kind: 'operations' },
        }),
      };
    // A-R2, A-R9.
    case 'get': {
      const next = created(state);
      const id = ANY_ID_WRITING(op.id);
      const user = next.users[id];
      const first = state.collection ? '' : ', first read';
      if (user)
        return {
          state: next,
          expected: expected(`GET by id (existing id${first})`, {
            status: { kind: 'success' },
            media: 'xml',
            body: { kind: 'user', user },
          }),
        };
      return {
        state: next,
        expected: expected(`GET by id (unknown id${first})`, {
          status: { kind: 'choice', choice: 'unknownGetStatus' },
          body: { kind: 'no-user', id },
        }),
      };
    }
    // USR-COL-07 (open): a write before any read may or may not create the default user first. The
    // model then forgets what it cannot know (`complete: false`) and learns it from the next reads.
    case 'put':
    case 'post':
    case 'delete':
      if (!state.collection) {
        const id = ANY_ID_WRITING(op.kind === 'delete' ? op.id : op.user.id);
        return {
          state: { ...state, collection: true, complete: false, users: {} },
          expected: expected(
            `${op.kind.toUpperCase()} (first request)`,
            { status: { kind: 'any' }, media: 'xml', body: { kind: 'any' } },
            [id],
          ),
        };
      }
      return applyWrite(state, op);
    // A-R8: open. Whatever it answers, the record of that id is then unknown: read it back (observeUser).
    case 'put-by-path':
    case 'post-by-path': {
      const id = ANY_ID_WRITING(op.id);
      return {
        state: withoutUser(state, id),
        expected: expected(
          op.kind === 'put-by-path' ? 'PUT by path' : 'POST by path',
          {
            status: { kind: 'any' },
            body: { kind: 'any' },
          },
          [id],
        ),
      };
    }
    // B: the suite's fixture create (any 2xx; 200/201 carry the whole resource, B-2).
    case 'domain-create':
      return {
        state,
        expected: expected('domain create', {
          status: { kind: 'success' },
          media: 'json',
          body: { kind: 'created', resource: 'domain', hostname: op.hostname },
        }),
      };
    case 'worker-create':
      return {
        state,
        expected: expected('worker create', {
          status: { kind: 'success' },
          media: 'json',
          body: { kind: 'created', resource: 'worker' },
        }),
      };
    case 'domain-list':
    case 'worker-list':
      return {
        state,
        expected: expected(op.kind === 'domain-list' ? 'domain list' : 'worker list', {
          status: { kind: 'success' },
          body: { kind: 'array' },
        }),
      };
    case 'domain-get': {
      const domain = appOf(state, op.app).domains[op.id];
      return {
        state,
        expected: domain
          ? expected('domain get', { status: { kind: 'success' }, body: { kind: 'domain', domain } })
          : expected('domain get (removed)', { status: { kind: 'not-served' }, body: { kind: 'any' } }),
      };
    }
    // B-1, B-2: a change answered 200/201 carries the whole, changed domain.
    case 'domain-update': {
      const app = appOf(state, op.app);
      const domain = app.domains[op.id];
      if (!domain)
        return {
          state,
          expected: expected('domain update (removed)', {
            status: { kind: 'any' },
            media: 'json',
            body: { kind: 'domain' },
          }),
        };
      const changed = { ...domain, hostname: op.hostname.toLowerCase() };
      return {
        state: withApp(state, op.app, { ...app, domains: { ...app.domains, [op.id]: changed } }),
        expected: expected('domain update', {
          status: { kind: 'success' },
          media: 'json',
          body: { kind: 'domain', domain: changed, hostname: op.hostname },
        }),
      };
    }
    // B-4, B-6: 200 with the domain as it was; it is then no longer served.
    case 'domain-delete': {
      const app = appOf(state, op.app);
      const domain = app.domains[op.id];
      if (!domain)
        return {
          state,
          expected: expected('domain delete (removed)', {
            status: { kind: 'any' },
            media: 'json',
            body: { kind: 'domain' },
          }),
        };
      const domains = { ...app.domains };
      delete domains[op.id];
      return {
        state: withApp(state, op.app, { ...app, domains }),
        expected: expected('domain delete', {
          status: { kind: 'exact', statuses: [200] },
          media: 'json',
          body: { kind: 'domain', domain },
        }),
      };
    }
    case 'worker-get': {
      const worker = appOf(state, op.app).workers[op.id];
      return {
        state,
        expected: expected(worker && !worker.removing ? 'worker get' : 'worker get (removal under way)', {
          // B-6: a worker whose removal was accepted is eventually not served; until then either.
          status: worker && !worker.removing ? { kind: 'success' } : { kind: 'any' },
          body: { kind: 'any' },
        }),
      };
    }
    // B-5, B-3: 202 with {}; the removal is carried out afterwards.
    case 'worker-delete': {
      const app = appOf(state, op.app);
      const worker = app.workers[op.id];
      const next = worker
        ? withApp(state, op.app, {
            ...app,
            workers: { ...app.workers, [op.id]: { ...worker, removing: true } },
          })
        : state;
      // B-6: a worker whose removal was accepted may be gone by now (not served), or still be there:
      // then this DELETE is a DELETE of a worker, 202 with {} (B-5), and a wrong answer is the same
      // defect as to the first DELETE (one situation, one signature).
      if (worker?.removing)
        return {
          state: next,
          expected: expected('worker delete', {
            status: { kind: 'exact-or-not-served', statuses: [202] },
            media: 'json',
            body: { kind: 'empty-object' },
          }),
        };
      return {
        state: next,
        expected: expected(worker ? 'worker delete' : 'worker delete (removed)', {
          status: worker ? { kind: 'exact', statuses: [202] } : { kind: 'any' },
          media: 'json',
          body: worker ? { kind: 'empty-object' } : { kind: 'any' },
        }),
      };
    }
  }
}

type Write = Extract<Operation, { kind: 'put' | 'post' | 'delete' }>;

/** PUT, POST and DELETE on an existing collection. */
function applyWrite(state: State, op: Write): { state: State; expected: Expected } {
  const expected = (situation: string, word: 'success' | 'failure', id: string): Expected => ({
    op,
    situation,
    touches: [id],
    ...result(word),
  });
  if (op.kind === 'delete') {
    // A-R5.1, A-R5.2.
    const id = ANY_ID_WRITING(op.id);
    if (state.users[id])
      return {
        state: { ...withoutUser(state, id), deleted: [...new Set([...(state.deleted ?? []), id])] },
        expected: expected('DELETE (existing id)', 'success', id),
      };
    return { state, expected: expected('DELETE (unknown id)', 'failure', id) };
  }
  const user = userOfForm(op.user);
  const exists = !!state.users[user.id];
  if (op.kind === 'put')
    // A-R3.1, A-R3.2, A-R3.3.
    return exists
      ? { state, expected: expected('PUT (existing id)', 'failure', user.id) }
      : { state: withUser(state, user), expected: expected('PUT (new id)', 'success', user.id) };
  // A-R4.1, A-R4.2.
  return exists
    ? { state: withUser(state, user), expected: expected('POST (existing id)', 'success', user.id) }
    : { state, expected: expected('POST (unknown id)', 'failure', user.id) };
}
