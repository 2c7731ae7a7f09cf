import type http from 'node:http';
import { FORM_TYPE, formBody } from '../../../../testing/form.ts';
import { createAgent, type Reply, RequestFailed, request } from '../../../../testing/http.ts';
import { FAILURE, SUCCESS } from '../../support/http.ts';
import { sleep } from './child-server.ts';
import {
  ABSENT,
  History,
  type Op,
  type OpKind,
  type Outcome,
  tagOfRecord,
  userFieldsFor,
} from './history.ts';

const OUTCOME_UNKNOWN_BODY =
  /^<\?xml [^>]*\?><error><code>outcome_unknown<\/code><message>[^<]+<\/message><\/error>$/;
const UNAVAILABLE_BODY =
  /^<\?xml [^>]*\?><error><code>service_unavailable<\/code><message>[^<]+<\/message><\/error>$/;

export interface WorkloadOptions {
  /** Base URL of the service, e.g. http://127.0.0.1:8080 (a function when the port may change). */
  base: string | (() => string);
  clients: number;
  /** Stop after this long... */
  durationMs: number;
  /** ...or after this many operations in total, whichever comes first. */
  maxOps: number;
  /** User ids the clients share (overlapping on purpose). */
  userIds: readonly number[];
  /** Relative weights of the operation kinds. */
  mix?: Partial<Record<OpKind, number>>;
  /** Pause after an answer other than ok/rejected, so a down service is not hammered. */
  backoffMs?: number;
  /** Pause between operations of one client. */
  thinkMs?: number;
  timeoutMs?: number;
  /** Use the PUT/POST /users/{id} form for this share of writes (0..1). */
  pathFormShare?: number;
  /** Called with every finished operation (for timelines). */
  onOp?: (op: Op) => void;
  /** Stops early when this resolves. */
  stop?: Promise<unknown>;
}

export interface WorkloadResult {
  history: History;
  elapsedMs: number;
  agent: http.Agent;
}

function pick<T extends string>(weights: Record<T, number>, r: number): T {
  const entries = Object.entries(weights) as Array<[T, number]>;
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let x = r * total;
  for (const [key, w] of entries) {
    x -= w;
    if (x < 0) return key;
  }
  return entries[entries.length - 1]![0];
}

/** A small deterministic PRNG, so a run can be repeated with the same seed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

/** Runs `clients` concurrent loops of random operations on overlapping ids; logs every operation and answer. */
export async function runWorkload(
  options: WorkloadOptions,
  history = new History(),
  seed = 42,
): Promise<WorkloadResult> {
  const mix: Record<OpKind, number> = { create: 3, update: 3, delete: 2, read: 2, ...options.mix };
  const agent = createAgent(options.clients);
  const started = performance.now();
  let stopped = false;
  options.stop?.then(() => {
    stopped = true;
  });
  let issued = 0;
  const baseOf = typeof options.base === 'function' ? options.base : () => options.base as string;
  const timer = setTimeout(() => {
    stopped = true;
  }, options.durationMs);

  const loop = async (client: number) => {
    const random = prng(seed * 1000 + client);
    while (!stopped && issued < options.maxOps) {
      issued++;
      const kind = pick(mix, random());
      const userId = options.userIds[Math.floor(random() * options.userIds.length)]!;
      const seq = history.nextSeq();
      const tag = `c${client}s${seq}`;
      const viaPath = random() < (options.pathFormShare ?? 0);
      const op = await perform(
        baseOf(),
        agent,
        kind,
        userId,
        tag,
        seq,
        client,
        viaPath,
        options.timeoutMs ?? 10_000,
      );
      history.add(op);
      options.onOp?.(op);
      const pause =
        op.outcome === 'ok' || op.outcome === 'rejected' ? (options.thinkMs ?? 0) : (options.backoffMs ?? 25);
      if (pause > 0) await new Promise((r) => setTimeout(r, pause));
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, i) => loop(i + 1)));
  clearTimeout(timer);
  return { history, elapsedMs: performance.now() - started, agent };
}

export async function perform(
  base: string,
  agent: http.Agent,
  kind: OpKind,
  userId: number,
  tag: string,
  seq: number,
  client: number,
  viaPath: boolean,
  timeoutMs: number,
): Promise<Op> {
  const users = `${base}/UserService/users`;
  const fields = { id: userId, ...userFieldsFor(tag) };
  const start = performance.now();
  let reply: Reply | undefined;
  let failure: RequestFailed | undefined;
  try {
    const headers = { 'Content-Type': FORM_TYPE };
    if (kind === 'read') reply = await request(`${users}/${userId}`, { agent, timeoutMs });
    else if (kind === 'delete')
      reply = await request(`${users}/${userId}`, { method: 'DELETE', agent, timeoutMs });
    else {
      const method = kind === 'create' ? 'PUT' : 'POST';
      reply = await request(viaPath ? `${users}/${userId}` : users, {
        method,
        headers,
        body: formBody(fields),
        agent,
        timeoutMs,
      });
    }
  } catch (err) {
    if (!(err instanceof RequestFailed)) throw err;
    failure = err;
  }
  const end = performance.now();
  const op: Op = {
    seq,
    client,
    kind,
    userId,
    tag,
    start,
    end,
    outcome: 'unexpected',
    status: reply?.status ?? 0,
  };
  if (failure) {
    op.outcome = failure.kind === 'refused' ? 'refused' : 'indeterminate';
    op.detail = failure.code;
    return op;
  }
  const { status, body } = reply!;
  op.outcome = classify(kind, status, body);
  if (op.outcome === 'unexpected') op.detail = body.slice(0, 300);
  if (op.outcome === 'indeterminate') op.detail = 'outcome_unknown';
  if (kind === 'read' && op.outcome === 'ok') {
    if (status === 404) op.seen = null;
    else {
      const m =
        /^<\?xml [^>]*\?><user><id>(-?\d+)<\/id><name>([^<]*)<\/name><profession>([^<]*)<\/profession><\/user>$/.exec(
          body,
        );
      op.seen = m && Number(m[1]) === userId ? tagOfRecord(m[2]!, m[3]!) : `torn:${body.slice(0, 120)}`;
    }
  }
  return op;
}

function classify(kind: OpKind, status: number, body: string): Outcome {
  if (status === 503) return UNAVAILABLE_BODY.test(body) ? 'unavailable' : 'unexpected';
  // The server says Redis took the change but never answered: it may or may not have happened.
  if (status === 504 && kind !== 'read')
    return OUTCOME_UNKNOWN_BODY.test(body) ? 'indeterminate' : 'unexpected';
  if (kind === 'read') {
    if (status === 200 && body.includes('<user>')) return 'ok';
    if (status === 404 && body.includes('<code>not_found</code>')) return 'ok';
    return 'unexpected';
  }
  if (status === 200 && body === SUCCESS) return 'ok';
  const rejectedStatus = kind === 'create' ? 409 : 404;
  if (status === rejectedStatus && body === FAILURE) return 'rejected';
  return 'unexpected';
}

/**
 * Reads the whole collection through the API: user id → tag (or torn:…). A 503 ("try again shortly", the
 * store not reachable yet: a topology still settling after a fault, on a loaded machine) is asked again
 * until the list comes, for up to 60 s: the state is what is judged, not how soon it can be read.
 */
export async function readFinalState(base: string): Promise<Map<number, string>> {
  const deadline = performance.now() + 60_000;
  let reply = await request(`${base}/UserService/users`, { timeoutMs: 30_000 });
  while (reply.status === 503 && performance.now() < deadline) {
    await sleep(200);
    reply = await request(`${base}/UserService/users`, { timeoutMs: 30_000 });
  }
  if (reply.status !== 200)
    throw new Error(`final list answered ${reply.status}: ${reply.body.slice(0, 200)}`);
  const state = new Map<number, string>();
  for (const m of reply.body.matchAll(
    /<user><id>(-?\d+)<\/id><name>([^<]*)<\/name><profession>([^<]*)<\/profession><\/user>/g,
  )) {
    state.set(Number(m[1]), tagOfRecord(m[2]!, m[3]!));
  }
  return state;
}

/** The final state restricted to the ids a workload used (the default user 1 is left out). */
export function restrict(state: Map<number, string>, ids: readonly number[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const id of ids) {
    const v = state.get(id);
    if (v !== undefined && v !== ABSENT) out.set(id, v);
  }
  return out;
}

export function range(from: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => from + i);
}
