/**
 * Section B of the spec as the explorer sends it: domains and workers of one app the sequence owns
 * (`/apps/{app_id}/…`, an app id of its own per sequence, so a shared target is safe). Ids are the
 * implementation's: an operation names a resource by `ref`, the n-th domain (or worker) the sequence
 * created, and is resolved against the ids the creates' answers carried in this run, so that a
 * sequence replays (and shrinks) on another instance. A ref no create of this run filled is sent as
 * a UUID no implementation hands out (`ABSENT`): the model then expects the resource not to be served.
 *
 * `W-AWAIT` is the one operation of the explorer's own: B-6 says a worker whose DELETE was accepted
 * (202) is eventually no longer served. The explorer reads it (GET) until it is not, for as long as
 * CONFORMANCE_ASYNC_TIMEOUT_MS (what APP-WRK-04 waits: one wait, support/removal.ts), never for a fixed time: a worker still served
 * then is `worker removal | state-change | still served`. A worker the model does not hold as being
 * removed is read once.
 */
import { appPath, type Created, type Operation as ModelOperation, NOTHING_CREATED } from '../model/index.ts';
import type { Rng } from './prng.ts';

export type AppOperation =
  | { kind: 'D-CREATE'; hostname: string }
  | { kind: 'D-PATCH'; ref: number; hostname: string }
  | { kind: 'D-GET' | 'D-DELETE'; ref: number }
  | { kind: 'W-CREATE'; command: string }
  | { kind: 'W-GET' | 'W-DELETE' | 'W-AWAIT'; ref: number }
  | { kind: 'D-LIST' | 'W-LIST' };
export type AppKind = AppOperation['kind'];

/** An app operation resolved: the app of the sequence and, for a ref, the id it stands for. */
export type ConcreteApp = AppOperation & { app: string; target?: string };

export { type Created, NOTHING_CREATED };

const APP_KINDS: ReadonlySet<string> = new Set<AppKind>([
  'D-CREATE',
  'D-PATCH',
  'D-GET',
  'D-DELETE',
  'D-LIST',
  'W-CREATE',
  'W-GET',
  'W-DELETE',
  'W-AWAIT',
  'W-LIST',
]);
export const isAppOperation = (op: { kind: string }): op is AppOperation => APP_KINDS.has(op.kind);

/** A UUID no implementation hands out: the id a ref stands for when no create of this run filled it. */
export const absentId = (ref: number) => `00000000-0000-4000-8000-${String(ref).padStart(12, '0')}`;

export function resolveApp(op: AppOperation, app: string, created: Created): ConcreteApp {
  if (!('ref' in op)) return { ...op, app };
  const ids = op.kind.startsWith('D-') ? created.domains : created.workers;
  return { ...op, app, target: ids[op.ref] ?? absentId(op.ref) };
}

/** The app id a sequence owns: from its pool's base, so that no two sequences of a run share one. */
export const appOf = (base: bigint | number) => `explore-${base}`;

interface AppRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const withJson = (method: string, path: string, value: object): AppRequest => ({
  method,
  path,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(value),
});

export function appRequest(op: ConcreteApp): AppRequest {
  const kind = op.kind.startsWith('D-') ? 'domains' : 'workers';
  const collection = appPath(op.app, kind);
  const item = appPath(op.app, kind, op.target ?? '');
  switch (op.kind) {
    case 'D-CREATE':
      return withJson('POST', collection, { hostname: op.hostname });
    case 'W-CREATE':
      return withJson('POST', collection, { command: op.command });
    case 'D-LIST':
    case 'W-LIST':
      return { method: 'GET', path: collection, headers: {} };
    case 'D-PATCH':
      return withJson('PATCH', item, { hostname: op.hostname });
    case 'D-DELETE':
    case 'W-DELETE':
      return { method: 'DELETE', path: item, headers: {} };
    case 'D-GET':
    case 'W-GET':
    case 'W-AWAIT':
      return { method: 'GET', path: item, headers: {} };
  }
}

export function appToModel(op: ConcreteApp): ModelOperation {
  const { app } = op;
  const id = op.target ?? '';
  switch (op.kind) {
    case 'D-CREATE':
      return { kind: 'domain-create', app, hostname: op.hostname };
    case 'D-LIST':
      return { kind: 'domain-list', app };
    case 'D-GET':
      return { kind: 'domain-get', app, id };
    case 'D-PATCH':
      return { kind: 'domain-update', app, id, hostname: op.hostname };
    case 'D-DELETE':
      return { kind: 'domain-delete', app, id };
    case 'W-CREATE':
      return { kind: 'worker-create', app, command: op.command };
    case 'W-LIST':
      return { kind: 'worker-list', app };
    case 'W-GET':
    case 'W-AWAIT':
      return { kind: 'worker-get', app, id };
    case 'W-DELETE':
      return { kind: 'worker-delete', app, id };
  }
}

// --- generation

/** Relative frequencies of a section B sequence: changes most, reads of one resource next, lists now and then. */
const APP_WEIGHTS: ReadonlyArray<[AppKind, number]> = [
  ['D-CREATE', 12],
  ['D-GET', 10],
  ['D-PATCH', 12],
  ['D-DELETE', 10],
  ['D-LIST', 3],
  ['W-CREATE', 12],
  ['W-GET', 8],
  ['W-DELETE', 10],
  ['W-AWAIT', 3],
  ['W-LIST', 3],
];

const token = (rng: Rng) =>
  rng
    .int(36 ** 6)
    .toString(36)
    .padStart(6, '0');
/** A host name no other sequence sends (RFC 1123; upper case now and then: host names are case-insensitive). */
export const hostname = (rng: Rng) => {
  const label = `h${token(rng)}`;
  return `${rng.chance(0.15) ? label.toUpperCase() : label}.explore.example`;
};
const command = (rng: Rng) => `explore-${token(rng)}`;

/** Random operations between two reads of everything the sequence created. */
export const APP_CHECK_EVERY = 8;

/** Every resource the sequence created read back, and both lists. */
export function appStateCheck(domains: number, workers: number): AppOperation[] {
  return [
    { kind: 'D-LIST' },
    { kind: 'W-LIST' },
    ...Array.from({ length: domains }, (_, ref): AppOperation => ({ kind: 'D-GET', ref })),
    ...Array.from({ length: workers }, (_, ref): AppOperation => ({ kind: 'W-GET', ref })),
  ];
}

/**
 * A source of section B operations for `runSequence`: `length` random operations on the domains and
 * workers the sequence creates; after a DELETE, now and then a read of the same resource at once (a
 * domain still served) or, for a worker, a second DELETE at once (while it is stopping) or a wait for
 * its removal; every APP_CHECK_EVERY operations and at the end everything is read back, and at the end
 * every worker deleted is waited for.
 */
export function appSequenceSource(rng: Rng, length: number): (index: number) => AppOperation | undefined {
  const queue: AppOperation[] = [];
  let domains = 0;
  let workers = 0;
  const deleted = new Set<number>();
  let drawn = 0;
  let ended = false;
  const total = APP_WEIGHTS.reduce((sum, [, w]) => sum + w, 0);
  const kind = (): AppKind => {
    let n = rng.next() * total;
    for (const [k, w] of APP_WEIGHTS) {
      n -= w;
      if (n < 0) return k;
    }
    return 'W-LIST';
  };
  const draw = (): AppOperation[] => {
    const k = kind();
    if (k === 'D-CREATE' || (k.startsWith('D-') && k !== 'D-LIST' && domains === 0)) {
      domains++;
      return [{ kind: 'D-CREATE', hostname: hostname(rng) }];
    }
    if (k === 'W-CREATE' || (k.startsWith('W-') && k !== 'W-LIST' && workers === 0)) {
      workers++;
      return [{ kind: 'W-CREATE', command: command(rng) }];
    }
    switch (k) {
      case 'D-LIST':
      case 'W-LIST':
        return [{ kind: k }];
      case 'D-PATCH':
        return [{ kind: k, ref: rng.int(domains), hostname: hostname(rng) }];
      case 'D-GET':
        return [{ kind: k, ref: rng.int(domains) }];
      case 'D-DELETE': {
        const ref = rng.int(domains);
        return rng.chance(0.4)
          ? [
              { kind: k, ref },
              { kind: 'D-GET', ref },
            ]
          : [{ kind: k, ref }];
      }
      case 'W-GET':
        return [{ kind: k, ref: rng.int(workers) }];
      case 'W-AWAIT': {
        const pick = [...deleted];
        return [{ kind: k, ref: pick.length ? (rng.pick(pick) as number) : rng.int(workers) }];
      }
      default: {
        const ref = rng.int(workers);
        deleted.add(ref);
        const del: AppOperation = { kind: 'W-DELETE', ref };
        const then = rng.next();
        return then < 0.35 ? [del, del] : then < 0.6 ? [del, { kind: 'W-AWAIT', ref }] : [del];
      }
    }
  };
  return () => {
    while (queue.length === 0 && !ended) {
      if (drawn === length) {
        queue.push(
          ...appStateCheck(domains, workers),
          ...[...deleted].sort((a, b) => a - b).map((ref): AppOperation => ({ kind: 'W-AWAIT', ref })),
        );
        ended = true;
        break;
      }
      queue.push(...draw());
      drawn++;
      if (drawn % APP_CHECK_EVERY === 0 && drawn < length) queue.push(...appStateCheck(domains, workers));
    }
    return queue.shift();
  };
}
