/**
 * A defect the explorer found, as data: what the report, the CLI and the rules render. Built from a
 * failing sequence (its numbered exchanges, the step that disagreed and what the model expected there)
 * or from a non-linearizable history (its smallest witness, one lane per client).
 */
import type { Evidence, HistoryStep } from '../report/defects.ts';
import type { TimedExchange } from './client.ts';
import { type Signature, signatureKey } from './model.ts';

export interface ShownExchange {
  /** 1-based, in the order of the sequence (of the calls, for a history). */
  n: number;
  /** The client that sent it (concurrent histories). */
  client?: number;
  /** One of the reads after the round, or of the writes before it (concurrent histories). */
  after?: boolean;
  before?: boolean;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The answer, or undefined when none came. */
  status?: number;
  contentType?: string;
  answer?: string;
  /** ms since the run began. */
  call: number;
  ret: number;
  /** A write of a witness whose answer is ignored (open-ended): it may take effect any time after its call. */
  relaxed?: boolean;
  /** A fill (operations.ts FILL): `count` PUTs of ids `first` on; the exchange shown is one of them. */
  fill?: { first: string; count: number };
  /** A worker read until it is no longer served, for at most this many ms (W-AWAIT, apps.ts): its last read is shown. */
  awaitMs?: number;
  /** The read of the list after a restart of the implementation (RESTART): the restart is shown before it. */
  restart?: true;
}

export interface Defect {
  /** E1, E2, … in the order found. */
  id: string;
  phase: 'sequential' | 'concurrent';
  signature: Signature;
  /** A SHOULD defect warns; a MUST defect fails the run. */
  level: 'MUST' | 'SHOULD';
  /** The signature of the step that first disagreed, when the defect is named by an earlier write. */
  firstSeen?: Signature;
  title: string;
  seed: number;
  /** ms from the start of the phase to the failure's first sighting. */
  foundAfterMs: number;
  /** ms from the start of the run (both phases) to the failure's first sighting. */
  foundAtMs?: number;
  /** The step of `exchanges` (n) that disagreed (sequential). */
  failingStep?: number;
  expected: string;
  message: string;
  exchanges: ShownExchange[];
  /** A race's writes of other ids that overlapped its minimal history (`exchanges`), answered success: shown apart. */
  overlapping?: ShownExchange[];
  /** Where the minimal sequence was run again and what it did there. */
  confirmed: string;
  /** Steps before and after shrinking; `minimal`: no single step of the result can go (shrink.ts). */
  shrunk?: { from: number; to: number; replays: number; minimal: boolean };
  /** A shell script of curl lines that sends the same requests. */
  script: string;
  /** The witness drawn as a timeline (concurrent). */
  svg?: string;
}

const BODY_LIMIT = 600;
export function shown(
  n: number,
  exchange: TimedExchange,
  client?: number,
  relaxed?: boolean,
  after?: boolean,
  before?: boolean,
): ShownExchange {
  const obs = exchange.observation;
  const url = exchange.request.url;
  return {
    n,
    ...(client === undefined ? {} : { client }),
    method: exchange.request.method,
    url,
    headers: exchange.request.headers,
    ...(exchange.request.body === undefined ? {} : { body: exchange.request.body }),
    ...(obs
      ? {
          status: obs.status,
          contentType: obs.contentType,
          answer:
            obs.body.length > BODY_LIMIT
              ? `${obs.body.slice(0, BODY_LIMIT)}… (${obs.body.length} characters)`
              : obs.body,
        }
      : {}),
    call: exchange.call,
    ret: exchange.ret,
    ...(relaxed ? { relaxed } : {}),
    ...(after ? { after } : {}),
    ...(before ? { before } : {}),
  };
}

export const titleOf = (s: Signature) => `${s.operation}: ${s.aspect}: ${s.seen}`;

/**
 * One exchange as the report's history shows it (report/defects.ts HistoryStep); `returned`: its place
 * in the order of the answers, when it has one.
 */
export function historyStep(e: ShownExchange, returned?: number): HistoryStep {
  const { n, client, method, url, body, status, answer, call, ret } = e;
  return {
    n,
    ...(client === undefined ? {} : { client }),
    method,
    url,
    ...(body === undefined ? {} : { body }),
    ...(status === undefined ? {} : { status }),
    ...(answer === undefined ? {} : { answer }),
    call,
    ret,
    ...(returned === undefined ? {} : { returned }),
    ...(e.before ? { part: 'before' as const } : e.after ? { part: 'after' as const } : {}),
    ...(e.relaxed ? { relaxed: true as const } : {}),
  };
}

/** Each answered exchange's place in the order of the answers (1: first), by the time it came; ties by `n`. */
export function returnOrder(exchanges: readonly ShownExchange[]): Map<ShownExchange, number> {
  const answered = exchanges
    .filter((e) => e.status !== undefined && Number.isFinite(e.ret))
    .sort((a, b) => a.ret - b.ret || a.n - b.n);
  return new Map(answered.map((e, i) => [e, i + 1]));
}

/** What the suite's own report shows of a defect the explorer found (summary.json's defect, summary.md, index.html). */
export function evidenceOf(d: Defect): Evidence {
  const returned = returnOrder(d.exchanges);
  return {
    signature: signatureKey(d.signature),
    expected: d.expected,
    history: d.exchanges.map((e) => historyStep(e, returned.get(e))),
    ...(d.overlapping?.length ? { overlapping: overlappingSteps(d.overlapping) } : {}),
    script: d.script,
    ...(d.svg ? { svg: d.svg } : {}),
  };
}

/** A race's overlapping writes of other ids as steps of their own table: numbered, and ordered by answer, among themselves. */
function overlappingSteps(exchanges: readonly ShownExchange[]): HistoryStep[] {
  const returned = returnOrder(exchanges);
  return exchanges.map((e) => historyStep(e, returned.get(e)));
}
