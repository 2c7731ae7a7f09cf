/**
 * The state of a service as the model knows it: whether the user collection exists, the users by
 * canonical id, and the domains and workers of each app. Plain immutable data: every operation of the
 * model returns a new state.
 *
 * `complete`: the model knows every user (a fresh instance only this run writes). On a shared target it
 * knows only the users the run wrote or read (`complete: false`), and judges nothing else.
 */
export interface ModelUser {
  /** Canonical decimal form (`007` and `+7` are user `7`). */
  id: string;
  /** Undefined where the implementation chooses (the default user's name and profession). */
  name?: string;
  profession?: string;
}

export interface Domain {
  id: string;
  hostname: string;
  created_at: string;
  updated_at: string;
  /** Every other field the implementation showed: a later answer carries them too. */
  [field: string]: unknown;
}

export interface Worker {
  id: string;
  /** An accepted DELETE (202): the removal is under way; the worker is eventually no longer served. */
  removing: boolean;
  fields: Readonly<Record<string, unknown>>;
}

export interface AppState {
  domains: Readonly<Record<string, Domain>>;
  workers: Readonly<Record<string, Worker>>;
}

export interface State {
  collection: boolean;
  complete: boolean;
  /** The collection holds what its creation put there: no write since (the default user is judged as such). */
  pristine?: boolean;
  users: Readonly<Record<string, ModelUser>>;
  /**
   * The ids whose user a DELETE removed (as the model holds it): only to name the cause of a later PUT of
   * one that is refused (named-defects.ts deletedIdReserved); never judged by itself.
   */
  deleted?: readonly string[];
  apps: Readonly<Record<string, AppState>>;
}

/** The id of the default user a first read creates (SVC-10). */
export const DEFAULT_USER_ID = '1';

/** A fresh service: no collection yet, and nothing written. */
export function initialState(): State {
  return { collection: false, complete: true, users: {}, apps: {} };
}

/** A shared target: a collection exists, holding users the run does not know (and does not judge). */
export function sharedState(): State {
  return { collection: true, complete: false, users: {}, apps: {} };
}

/** `007`, ` +7 ` → `7`; undefined for what is not an integer (A-PATH-1). */
export function canonicalId(raw: string | number): string | undefined {
  const text = String(raw).trim();
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  return BigInt(text).toString();
}

export const EMPTY_APP: AppState = { domains: {}, workers: {} };

export function appOf(state: State, app: string): AppState {
  return state.apps[app] ?? EMPTY_APP;
}

export function withUser(state: State, user: ModelUser): State {
  return { ...state, pristine: false, users: { ...state.users, [user.id]: user } };
}

export function withoutUser(state: State, id: string): State {
  if (!(id in state.users)) return state;
  const users = { ...state.users };
  delete users[id];
  return { ...state, pristine: false, users };
}

export function withApp(state: State, app: string, next: AppState): State {
  return { ...state, apps: { ...state.apps, [app]: next } };
}

/** The collection a first read creates: exactly the default user, fields of the implementation's choice. */
export function created(state: State): State {
  if (state.collection) return state;
  return {
    ...state,
    collection: true,
    pristine: true,
    users: { [DEFAULT_USER_ID]: { id: DEFAULT_USER_ID } },
  };
}
