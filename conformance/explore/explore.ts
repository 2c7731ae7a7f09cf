/**
 * The explorer: a sequential phase (random sequences checked step by step against the model, whole
 * state every few steps) and a concurrent phase (rounds of clients at once, each history checked for
 * linearizability), each bounded by time. A failure is shrunk, run again on a fresh instance when one
 * can be had, reported once as a defect with its signature, and exploration goes on with that
 * signature set aside. A SHOULD disagreement (a restart that did not keep the users, a failure
 * answered 5xx) is a sequential defect of that level: found, shrunk and confirmed alike, it warns.
 * Everything random comes from one seed: `--seed N` sends the same operations.
 *
 * Which reader lies is the readers' check's verdict (support/readers.ts, run before the explorer, as
 * before the rules; support/liars.ts holds it): each liar is named once, by the named defect the rules
 * give it, with the check's requests as its evidence; the explorer's steps do not judge a read through
 * it for its lie (model.ts step), and its read-backs read through the reader that does not lie
 * (sequence.ts throughTruth).
 */

import { firstSightings, isKnown } from '../model/findings.ts';
import { sectionBNotServed } from '../model/fixtures.ts';
import { appPath, createdId } from '../model/formats.ts';
import { inputHeld, type Liar } from '../model/index.ts';
import { serverErrorUnderConcurrency } from '../model/named-defects.ts';
import type { Exchange } from '../support/exchange.ts';
import { failsForGood } from '../support/for-good.ts';
import { checkExchanges, liars } from '../support/liars.ts';
import { ASYNC_TIMEOUT_MS } from '../support/removal.ts';
import { type AppRace, appRaceRound, RACE_PATTERNS } from './app-race.ts';
import { appRequest, appSequenceSource, type Created } from './apps.ts';
import { now, send } from './client.ts';
import {
  judgeRound,
  planRound,
  type Recorded,
  ROUND_SLOTS,
  type RoundVerdict,
  runRound,
  SUCCESS_RESULT,
  serverErrorIn,
} from './concurrent.ts';
import { type Defect, type ShownExchange, shown, titleOf } from './defect.ts';
import { diagnose, firstUserChanged } from './diagnose.ts';
import { sequenceSource } from './generate.ts';
import { type Disagreement, observed, type Signature, signatureKey } from './model.ts';
import type { Operation } from './operations.ts';
import { type Rng, rng } from './prng.ts';
import { type Launch, script, timeline } from './render.ts';
import {
  listedNow,
  replay,
  runSequence,
  type SequenceResult,
  type SetAside,
  type Where,
} from './sequence.ts';
import { plainInputs, shrink } from './shrink.ts';
import { fillCount, freshPool, ownedPool, type Pool, poolIds, valueAt } from './values.ts';

export interface Instance {
  url: string;
  stop(): Promise<void>;
  /** Stops it and starts it again on the same port and data: sequences on it then restart it now and then. */
  restart?(): Promise<void>;
}

/** A sequence's place on a fresh instance: all of it judged, and restarts when the instance has them. */
function onFresh(instance: Instance | undefined, url: string, asyncMs?: number): Where {
  const restart = instance?.restart?.bind(instance);
  return { url, pool: freshPool(), scope: 'all', asyncMs, ...(restart ? { restart } : {}) };
}

export interface Targets {
  /** The target to explore when no fresh instance can be had (ids the run owns only). */
  shared: string;
  /** A fresh instance (empty collection), when a start command is given. */
  fresh?: () => Promise<Instance>;
  /** The start command the instances come from: the replay scripts start (and restart) the implementation so too. */
  launch?: Launch;
}

export interface ExploreOptions {
  seed: number;
  sequentialMs: number;
  concurrentMs: number;
  clients: number;
  targets: Targets;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Stop at the first defect (to measure the time it takes to find one). */
  stopAtFirst?: boolean;
  /**
   * How long a worker whose DELETE was accepted may still be served before the explorer calls it never
   * removed (B-6); CONFORMANCE_ASYNC_TIMEOUT_MS by default (support/removal.ts).
   */
  asyncTimeoutMs?: number;
  /**
   * Section B too (domains and workers: one sequence in four, one race round in five); default true,
   * the normal run's too: the APP-* rules judge through the same model, so a section B defect met by a
   * rule and by the explorer is one signature, one defect.
   */
  sectionB?: boolean;
}

export interface ExploreResult {
  seed: number;
  defects: Defect[];
  stats: {
    sequences: number;
    steps: number;
    /** RESTART steps that restarted a fresh instance. */
    restarts: number;
    rounds: number;
    roundOps: number;
    setAside: number;
    unanswered: number;
  };
  notes: string[];
}

/** Operations per sequence, and per client per round. */
const SEQUENCE_LENGTH = 40;
/**
 * One sequence in this many (the second, the sixth, …) sends section B operations (apps.ts: the domains
 * and workers of an app of its own), on the current instance; the others section A, as before. A
 * section B sequence never takes a fresh instance's turn: the next section A sequence gets it.
 */
const APP_EVERY = 4;
const APP_SEQUENCE_LENGTH = 30;
/**
 * One sequence in this many (the fourth, the twelfth, …; section A, on owned ids when the fresh
 * instances come every other sequence) holds a fill: a thousand users or a hundred (values.ts
 * fillCount, the first of a run big), then a read of the whole list. A big one costs about two seconds
 * with its removal, so it is rare; every run still sees several.
 */
const FILL_EVERY = 8;
const FILL_AT = 3;
/** One concurrent round in this many (the third, the eighth, …) is a race of section B changes (app-race.ts). */
const APP_RACE_EVERY = 5;
const ROUND_OPS = 8;
/**
 * A fresh instance for one sequence in this many (the others use new ids on the current instance): every
 * other one when an instance starts within FAST_START_MS, else one in four.
 */
const FRESH_EVERY_FAST = 2;
const FRESH_EVERY = 4;
const FAST_START_MS = 1500;
/**
 * Sequences on a fresh instance draw restarts (generate.ts) while restarting has taken less than this
 * share of the sequential phase: an implementation slow to start gets one or two, not a phase of them.
 */
const RESTART_TIME = 0.1;
const SHRINK_ATTEMPTS = 150;
const SHRINK_MS = 12_000;
/** Shrinking on a fresh instance per replay (a failure that needs one) gets more time and fewer replays. */
const FRESH_SHRINK_MS = 25_000;
const FRESH_SHRINK_ATTEMPTS = 60;

const sameFailure = (result: SequenceResult, sig: Signature) =>
  result.failedAt !== undefined &&
  (result.steps[result.failedAt]?.disagreements ?? []).some(
    (d) => signatureKey(d.signature) === signatureKey(sig),
  );

/**
 * Why section B is not explored, when the implementation does not create domains and workers as the suite
 * does (`POST /apps/{app_id}/domains {"hostname"}`, `…/workers {"command"}`: the spec names no way to):
 * read as the APP-* rules read it (support/apps.ts, their skip), never as a defect. Undefined when it does;
 * what the probe created is removed. No value is drawn from the run's generators: seeds replay as before.
 */
async function sectionBUnserved(baseUrl: string): Promise<string | undefined> {
  const app = `explore-probe-${Date.now().toString(36)}`;
  for (const [kind, op] of [
    ['domains', { kind: 'D-CREATE', hostname: `${app}.explore.example`, app }],
    ['workers', { kind: 'W-CREATE', command: `${app}-command`, app }],
  ] as const) {
    const { observation } = await send(baseUrl, appRequest(op));
    const served = observation !== undefined && observation.status >= 200 && observation.status <= 299;
    const id = served ? createdId(observed(observation)) : undefined;
    if (!served)
      return `${sectionBNotServed(kind, observation?.status ?? 0)}: section B not explored (the APP-* rules skip it alike)`;
    if (id === undefined)
      return `section B fixture: POST /apps/{app_id}/${kind} answered no object with an id: section B not explored (the APP-* rules skip it alike)`;
    await send(baseUrl, {
      method: 'DELETE',
      path: appPath(app, kind, id),
      headers: {},
    });
  }
  return undefined;
}

export async function explore(options: ExploreOptions): Promise<ExploreResult> {
  const log = options.log ?? (() => {});
  const root = rng(options.seed);
  const defects: Defect[] = [];
  const setAside = new Set<string>();
  const notes: string[] = [];
  const stats = { sequences: 0, steps: 0, restarts: 0, rounds: 0, roundOps: 0, setAside: 0, unanswered: 0 };
  const { targets } = options;
  let instance: Instance | undefined;
  let current = targets.shared;
  /** Pools for clean replays: a fork of its own, so that shrinking draws nothing from the run's generators. */
  const cleanPools = root.fork('clean-pools');
  /** The bases of the run's owned pools: none is drawn twice (values.ts ownedPool). */
  const taken = new Set<bigint>();
  /** Removes what a sequence or a round left on ids it owned on the shared target (not judged). */
  const removeOwned = async (where: { url: string; pool: Pool }, created?: Created, users = true) => {
    if (users)
      for (const id of poolIds(where.pool))
        await send(where.url, { method: 'DELETE', path: `/UserService/users/${id}`, headers: {} });
    for (const [kind, ids] of [
      ['domains', created?.domains ?? []],
      ['workers', created?.workers ?? []],
    ] as const)
      for (const id of ids)
        await send(where.url, {
          method: 'DELETE',
          path: `/apps/${encodeURIComponent(where.pool.app)}/${kind}/${encodeURIComponent(id)}`,
          headers: {},
        });
  };
  const asyncMs = options.asyncTimeoutMs ?? ASYNC_TIMEOUT_MS;
  const unserved = options.sectionB === false ? undefined : await sectionBUnserved(targets.shared);
  if (unserved) notes.push(unserved);
  const sectionB = options.sectionB !== false && unserved === undefined;
  const stopInstance = async () => {
    await instance?.stop().catch(() => undefined);
    instance = undefined;
  };
  let startMs = Infinity;
  let restartMs = 0;
  const freshInstance = async (): Promise<Instance | undefined> => {
    if (!targets.fresh) return undefined;
    await stopInstance();
    const began = now();
    instance = await targets.fresh();
    startMs = Math.min(startMs, now() - began);
    current = instance.url;
    return instance;
  };
  const done = () => options.stopAtFirst === true && defects.length > 0;
  /** Reports a defect, unless its signature was reported already (then only its first sighting's is set aside too). */
  const runStart = now();
  const report = (d: Defect, seenAt: number) => {
    d.foundAtMs = seenAt - runStart;
    const first = firstSightings(setAside, [d]).length > 0;
    if (d.firstSeen) setAside.add(signatureKey(d.firstSeen));
    if (!first) {
      stats.setAside++;
      return;
    }
    defects.push(d);
    log(`defect ${d.id}: ${d.title} (seed ${d.seed})`);
  };

  /** Shrinks a failing sequence, confirms it, and reports it (or counts it set aside). */
  const shrinkAndReport = async (
    ops: Operation[],
    where: Where,
    signature: Signature,
    level: Disagreement['level'],
    foundAfterMs: number,
    phaseStart: number,
  ) => {
    const defect = await shrinkAndConfirm({
      level,
      id: `E${defects.length + 1}`,
      setAside: new Set(setAside),
      seed: options.seed,
      ops,
      where,
      signature,
      foundAfterMs,
      cleanPools,
      taken,
      freshInstance: targets.fresh ? freshInstance : undefined,
      currentUrl: () => current,
      asyncMs,
      ...(targets.launch ? { launch: targets.launch } : {}),
    });
    if (defect) report(defect, phaseStart + foundAfterMs);
    else stats.setAside++;
  };

  try {
    // The readers' check's liars, each named once (the same named defect as the rules').
    for (const liar of liars())
      report(
        liarDefect(`E${defects.length + 1}`, options.seed, liar, checkExchanges(), targets.launch),
        now(),
      );
    // --- sequential
    const seqStart = now();
    const seqEnd = seqStart + options.sequentialMs;
    let needFresh = true;
    for (let i = 0; now() < seqEnd && !done(); i++) {
      const r = root.fork(`sequence-${i}`);
      const apps = sectionB && i % APP_EVERY === 1;
      // Which sequences run on a fresh instance depends on how fast one starts; the operations drawn do not.
      const every = startMs < FAST_START_MS ? FRESH_EVERY_FAST : FRESH_EVERY;
      const wantFresh: boolean = targets.fresh !== undefined && (needFresh || i % every === 0);
      const fresh = wantFresh && !apps;
      if (fresh) await freshInstance();
      needFresh = apps && wantFresh;
      const where: Where = fresh
        ? onFresh(instance, current, asyncMs)
        : { url: current, pool: ownedPool(r.fork('pool'), taken), scope: 'owned', asyncMs };
      const restarts = where.restart !== undefined && restartMs < RESTART_TIME * options.sequentialMs;
      const restart = where.restart;
      if (restart)
        where.restart = async () => {
          const began = now();
          await restart();
          restartMs += now() - began;
        };
      const result = await runSequence(
        where,
        apps
          ? appSequenceSource(r, APP_SEQUENCE_LENGTH)
          : sequenceSource(r, where.pool, SEQUENCE_LENGTH, fresh, {
              restarts,
              ...(i % FILL_EVERY === FILL_AT
                ? { fill: fillCount(r.fork('fill-count'), Math.floor(i / FILL_EVERY)) }
                : {}),
            }),
        () => now() > seqEnd,
        setAside,
      );
      stats.sequences++;
      stats.steps += result.steps.length;
      if (where.restart) stats.restarts += result.steps.filter((s) => s.op.kind === 'RESTART').length;
      if (where.scope === 'owned') await removeOwned(where, result.held.created);
      if (result.unanswered) {
        stats.unanswered++;
        notes.push(
          `sequence ${i}: no answer to ${result.unanswered}; the sequence stopped there (not judged)`,
        );
        needFresh = true;
        continue;
      }
      if (result.failedAt === undefined) continue;
      const failing = result.steps[result.failedAt];
      const first = failing?.disagreements[0];
      if (!failing || !first) continue;
      const foundAfterMs = now() - seqStart;
      needFresh = true;
      if (isKnown(setAside, first)) {
        stats.setAside++;
        continue;
      }
      log(`sequence ${i}: ${titleOf(first.signature)}; shrinking ${result.steps.length} steps`);
      await shrinkAndReport(
        result.steps.map((s) => s.op),
        where,
        first.signature,
        first.level,
        foundAfterMs,
        seqStart,
      );
    }
    // --- concurrent
    const conStart = now();
    const conEnd = conStart + options.concurrentMs;
    for (let round = 0; now() < conEnd && !done(); round++) {
      const r = root.fork(`round-${round}`);
      if (targets.fresh && (needFresh || round === 0)) await freshInstance();
      needFresh = false;
      if (sectionB && round % APP_RACE_EVERY === 2) {
        const where: Where = { url: current, pool: ownedPool(r, taken), scope: 'owned', asyncMs };
        const pattern = RACE_PATTERNS[
          Math.floor(round / APP_RACE_EVERY) % RACE_PATTERNS.length
        ] as (typeof RACE_PATTERNS)[number];
        const race = await appRaceRound(where, pattern, r, setAside);
        stats.rounds++;
        stats.roundOps += race.race.length;
        // What the race created is removed afterwards (not judged): a domain still there, a worker still stopping.
        await removeOwned(where, race.created, false);
        if (race.skipped && race.race.some((o) => !o.exchange.observation)) {
          stats.unanswered++;
          needFresh = true;
        }
        if (!race.failure) continue;
        needFresh = true;
        if (isKnown(setAside, race.failure.disagreement)) {
          stats.setAside++;
          continue;
        }
        const foundAfterMs = now() - conStart;
        report(
          raceDefect(
            `E${defects.length + 1}`,
            options.seed,
            race,
            foundAfterMs,
            current,
            round,
            targets.launch,
          ),
          conStart + foundAfterMs,
        );
        continue;
      }
      const pool = ownedPool(r, taken);
      const plan = planRound(r, pool, round, options.clients, ROUND_OPS);
      // The list around the round: whether it changed a user of none of its ids, the first of the list
      // (on the run's own instances only: on a shared target other clients change users too).
      const listedBefore = targets.fresh ? await listedNow(current) : undefined;
      const { history, unanswered } = await runRound(current, pool, plan);
      const listedAfter = listedBefore && !unanswered ? await listedNow(current) : undefined;
      stats.rounds++;
      stats.roundOps += history.length;
      if (unanswered) {
        // As a sequence does: not judged, and the next round on a fresh instance where one can be had.
        stats.unanswered++;
        notes.push(`round ${round}: no answer to ${unanswered}; the round stopped there (not judged)`);
        needFresh = true;
        continue;
      }
      await removeOwned({ url: current, pool });
      const ids = ROUND_SLOTS.map((s) => valueAt(pool, s).toString());
      const verdict = judgeRound(history, ids);
      if (verdict.ok || !verdict.failure) continue;
      const foundAfterMs = now() - conStart;
      needFresh = true;
      // A service that now fails every read of the list, over a few seconds, is corrupted for good by the round.
      const failing = await listFailsForGood(current);
      if (failing) {
        const corrupted = serverErrorUnderConcurrency('the round', failing);
        verdict.failure.signature = corrupted.signature;
        verdict.failure.message = `${corrupted.message}; ${verdict.failure.message}`;
      }
      // A failure that the same operations show one after the other is not a race: it is reported (or
      // set aside) as the sequential defect it is, shrunk like one.
      const first =
        listedBefore && listedAfter ? firstUserChanged(listedBefore, listedAfter, poolIds(pool)) : undefined;
      if (first) {
        verdict.failure.signature = first.signature;
        verdict.failure.message = `${first.message}; ${verdict.failure.message}`;
      }
      const sequential =
        failing || first
          ? undefined
          : await withoutConcurrency(history, current, cleanPools, taken, setAside);
      if (sequential && !sequential.signature) {
        stats.setAside++;
        continue;
      }
      // A 5xx in the witness that the operations in turn do not give, the service serving again after the
      // round: a server error under concurrent writes (not a lost update, not a corruption for good).
      const serverError = failing ? undefined : serverErrorIn(verdict.failure.witness);
      if (!sequential && serverError?.output) {
        const named = serverErrorUnderConcurrency(
          `${serverError.exchange.request.method} ${serverError.exchange.request.path} answered ${serverError.output.status}`,
          undefined,
        );
        verdict.failure.signature = named.signature;
        verdict.failure.message = `${named.message}; ${verdict.failure.message}`;
      }
      const signature = sequential?.signature ?? verdict.failure.signature;
      if (isKnown(setAside, { signature })) {
        stats.setAside++;
        continue;
      }
      if (sequential) {
        log(
          `round ${round}: ${titleOf(signature)} also without concurrency; shrinking ${sequential.ops.length} steps`,
        );
        await shrinkAndReport(sequential.ops, sequential.where, signature, 'MUST', foundAfterMs, conStart);
      } else
        report(
          concurrentDefect(
            `E${defects.length + 1}`,
            options.seed,
            verdict,
            history,
            foundAfterMs,
            current,
            round,
            targets.launch,
          ),
          conStart + foundAfterMs,
        );
    }
  } finally {
    await stopInstance();
  }
  return { seed: options.seed, defects, stats, notes };
}

/** What every read of the list answered when, over a few seconds, all failed (support/for-good.ts); else undefined. */
const listFailsForGood = (url: string) =>
  failsForGood(async () => {
    const list = await send(url, { method: 'GET', path: '/UserService/users', headers: {} });
    if (list.observation && list.observation.status < 500) return undefined;
    return list.observation ? String(list.observation.status) : `nothing (${list.error})`;
  });

/**
 * The operations of a round sent one after the other (in the order of their calls, then of their
 * returns) on new ids: the first order whose sequence disagrees with the model, with the signature.
 */
async function withoutConcurrency(
  witness: ReadonlyArray<Recorded>,
  url: string,
  cleanPools: Rng,
  taken: Set<bigint>,
  setAside: SetAside,
): Promise<{ ops: Operation[]; where: Where; signature: Signature | undefined } | undefined> {
  const orders = [[...witness].sort((a, b) => a.call - b.call), [...witness].sort((a, b) => a.ret - b.ret)];
  for (const order of orders) {
    const ops = order.map((o) => o.op);
    // The round failed a MUST: its operations in turn are judged on MUST disagreements only.
    const where: Where = { url, pool: ownedPool(cleanPools, taken), scope: 'owned', mustOnly: true };
    const result = await replay(where, ops, setAside);
    const first = result.failedAt === undefined ? undefined : result.steps[result.failedAt]?.disagreements[0];
    if (first) return { ops: result.steps.map((s) => s.op), where, signature: first.signature };
    // Defects reported already show in these operations one after the other: they explain the round.
    if (result.known) return { ops, where, signature: undefined };
  }
  return undefined;
}

/**
 * `ops` (failing at some step, named by its input) with plain inputs (shrink.ts plainInputs), when they
 * disagree at the same step by another signature (a defect reported already too, which the replay goes
 * past): the plain steps and that signature. Else undefined: the input is the cause.
 */
export async function withoutTheInput(
  ops: readonly Operation[],
  clean: () => Promise<Where>,
  setAside: SetAside,
): Promise<{ ops: Operation[]; signature: Signature } | undefined> {
  const plain = plainInputs(ops);
  const [asSent, asPlain] = [
    await replay(await clean(), ops, setAside),
    await replay(await clean(), plain, setAside),
  ];
  const at = asSent.failedAt;
  if (at === undefined || (asPlain.failedAt ?? at) < at) return undefined;
  const there = asPlain.steps[at];
  // A MUST disagreement, as the input's is: a SHOULD there (a 5xx) does not rename it.
  const must = (ds?: readonly Disagreement[]) => ds?.find((d) => d.level === 'MUST');
  const first = must(there?.disagreements) ?? must(there?.met);
  if (!first || inputHeld(first.signature)) return undefined;
  return { ops: plain.slice(0, at + 1), signature: first.signature };
}

interface Found {
  id: string;
  /** The signatures reported already: a sequence goes past them. */
  setAside: SetAside;
  seed: number;
  ops: Operation[];
  where: Where;
  signature: Signature;
  level: Disagreement['level'];
  foundAfterMs: number;
  cleanPools: Rng;
  taken: Set<bigint>;
  freshInstance?: () => Promise<Instance | undefined>;
  currentUrl: () => string;
  asyncMs?: number;
  launch?: Launch;
}

/**
 * Shrinks a failing sequence on clean ids (new ids on the current instance when it was found on owned
 * ids, a fresh instance per replay otherwise), then runs the smallest one again on a fresh instance.
 */
async function shrinkAndConfirm(seen: Found): Promise<Defect | undefined> {
  let found = seen;
  const { asyncMs } = found;
  // Replays judge what the failure was judged on (a concurrent round's in turn: MUST only).
  const mustOnly = found.where.mustOnly ? { mustOnly: true } : {};
  const ownedClean = async (): Promise<Where> => ({
    url: found.currentUrl(),
    pool: ownedPool(found.cleanPools, found.taken),
    scope: 'owned',
    asyncMs,
    ...mustOnly,
  });
  // A failure found on a fresh instance is shrunk on new ids of the current one when it shows there too
  // (one instance per replay is slow); else on a fresh instance per replay.
  const ownedToo =
    found.where.scope === 'all' &&
    sameFailure(await replay(await ownedClean(), found.ops, found.setAside), found.signature);
  const scope = ownedToo ? 'owned' : found.where.scope;
  const clean = async (): Promise<Where> => {
    if (scope === 'all' && found.freshInstance) {
      const inst = await found.freshInstance();
      return { ...onFresh(inst, inst?.url ?? found.currentUrl(), asyncMs), ...mustOnly };
    }
    return ownedClean();
  };
  const attempts = scope === 'all' ? FRESH_SHRINK_ATTEMPTS : SHRINK_ATTEMPTS;
  const shrunk = await shrink(
    found.ops,
    async (candidate) => sameFailure(await replay(await clean(), candidate, found.setAside), found.signature),
    {
      attempts,
      deadline: Date.now() + (scope === 'all' ? FRESH_SHRINK_MS : SHRINK_MS),
    },
  );
  // A failure named by its input that the same steps with plain inputs fail too, at the same step, is
  // not the input's doing: it is named, confirmed and shown as the plain steps fail (the rules' name).
  const plain = inputHeld(found.signature)
    ? await withoutTheInput(shrunk.ops, clean, found.setAside)
    : undefined;
  if (plain) {
    // A defect reported already, met by the plain steps: the failure is one of its sightings.
    if (isKnown(found.setAside, plain)) return undefined;
    shrunk.ops = plain.ops;
    found = { ...found, signature: plain.signature };
  }
  // Run the smallest sequence again, on a fresh instance when one can be had.
  let confirmWhere: Where;
  let confirmedOn: string;
  if (found.freshInstance) {
    const inst = await found.freshInstance();
    const url = inst?.url ?? found.currentUrl();
    confirmWhere =
      scope === 'all'
        ? { ...onFresh(inst, url, asyncMs), ...mustOnly }
        : { url, pool: ownedPool(found.cleanPools, found.taken), scope: 'owned', asyncMs, ...mustOnly };
    confirmedOn = 'on a fresh instance';
  } else {
    confirmWhere = {
      url: found.currentUrl(),
      pool: ownedPool(found.cleanPools, found.taken),
      scope: 'owned',
      asyncMs,
      ...mustOnly,
    };
    confirmedOn = 'on the target, with new ids';
  }
  const again = await replay(confirmWhere, shrunk.ops, found.setAside);
  const reproduced = sameFailure(again, found.signature);
  // Show the confirming run when it failed the same way; else the last failing run of the search.
  const shownRun = reproduced ? again : await replay(await clean(), shrunk.ops, found.setAside);
  const failedAt = shownRun.failedAt ?? shownRun.steps.length - 1;
  const steps = shownRun.steps.slice(0, failedAt + 1);
  const failing = steps[failedAt];
  const disagreement =
    failing?.disagreements.find((d) => signatureKey(d.signature) === signatureKey(found.signature)) ??
    failing?.disagreements[0];
  const exchanges = steps.map((s, i) => ({
    ...shown(i + 1, s.exchange),
    ...(s.op.kind === 'W-AWAIT' ? { awaitMs: asyncMs ?? ASYNC_TIMEOUT_MS } : {}),
    ...(s.concrete.kind === 'FILL'
      ? { fill: { first: s.concrete.first.toString(), count: s.concrete.count } }
      : {}),
    ...(s.op.kind === 'RESTART' ? { restart: true as const } : {}),
  }));
  const base = confirmWhere.url;
  // The signature: the first write whose effect or answer disagrees, read back (diagnose.ts).
  // On ids of its own, on a fresh instance where one can be had: a store the search emptied shows less
  // (a write that acts on the first user of the list needs a user there).
  const diagnoseOn =
    scope === 'owned' && found.freshInstance
      ? {
          url: (await found.freshInstance())?.url ?? found.currentUrl(),
          pool: ownedPool(found.cleanPools, found.taken),
          scope: 'owned' as const,
          asyncMs,
          ...mustOnly,
        }
      : await clean();
  const diagnosed = await diagnose(diagnoseOn, shrunk.ops, found.setAside, found.level);
  // A failure that only defects reported already explain is one of their consequences: not reported.
  if (diagnosed === 'known') return undefined;
  const diagnosis = diagnosed;
  // The model's signature as it is: a text class in it split one defect in two from run to run.
  const signature = diagnosis ? diagnosis.signature : found.signature;
  const where =
    scope === 'all'
      ? 'a fresh instance (nothing stored yet)'
      : 'any instance (the ids are not used by anybody else)';
  const partial = {
    id: found.id,
    title: titleOf(signature),
    seed: found.seed,
    phase: 'sequential' as const,
    exchanges,
  };
  return {
    ...partial,
    signature,
    level: diagnosis ? diagnosis.level : found.level,
    firstSeen: seen.signature,
    foundAfterMs: found.foundAfterMs,
    failingStep: failedAt + 1,
    expected: failing?.expected ?? '',
    message:
      diagnosis && diagnosis.at < steps.length
        ? `${diagnosis.message} (step ${diagnosis.at + 1}, read back in a run of its own, on other ids)`
        : (disagreement?.message ?? ''),
    confirmed: reproduced
      ? `failed again ${confirmedOn}`
      : `did not fail again ${confirmedOn} (shown: the last failing replay)`,
    shrunk: {
      from: found.ops.length,
      to: shrunk.ops.length,
      replays: shrunk.attempts,
      minimal: shrunk.minimal,
    },
    script: script(partial, base, where, found.launch),
  };
}

function concurrentDefect(
  id: string,
  seed: number,
  verdict: RoundVerdict,
  history: readonly Recorded[],
  foundAfterMs: number,
  url: string,
  round: number,
  launch?: Launch,
): Defect {
  const failure = verdict.failure as NonNullable<RoundVerdict['failure']>;
  // The writes of other ids that answered success while a write of the witness was under way: a write
  // lost to another id's write shows there (at most 8, the earliest).
  const kept = failure.witness.filter((o) => !o.relaxed && o.input.kind !== 'GET');
  const overlaps = (o: Recorded) => kept.some((k) => o.call <= k.ret && o.ret >= k.call);
  const context = history
    .filter(
      (o) =>
        'value' in o.input &&
        o.input.value !== failure.id &&
        o.input.kind !== 'GET' &&
        o.output !== undefined &&
        SUCCESS_RESULT.test(o.output.body) &&
        overlaps(o),
    )
    .slice(0, 8);
  // The reads of the id after the round: what the script shows at its end.
  const inWitness = new Set(failure.witness.map((o) => o.exchange));
  const reads = history.filter(
    (o) => o.after && 'value' in o.input && o.input.value === failure.id && !inWitness.has(o.exchange),
  );
  // The round's writes of the id that answered success, or nothing, and that the witness left out
  // (called after its last answer): what the reads after the round show may be theirs. Shown with their
  // answers set aside, as the witness would hold them.
  const leftOut = reads.length
    ? history.filter(
        (o) =>
          !o.after &&
          !o.before &&
          'value' in o.input &&
          o.input.value === failure.id &&
          o.input.kind !== 'GET' &&
          (o.output === undefined || SUCCESS_RESULT.test(o.output.body)) &&
          !inWitness.has(o.exchange),
      )
    : [];
  // The minimal history holds only what plays a part; the overlapping writes of other ids are kept apart.
  const ordered = [
    ...failure.witness,
    ...leftOut.map((o) => ({ ...o, relaxed: true })),
    ...reads.map((o) => ({ ...o, relaxed: false })),
  ].sort((a, b) => a.call - b.call);
  const exchanges = ordered.map((op, i) =>
    shown(i + 1, op.exchange, op.client, op.relaxed, op.after, op.before),
  );
  const overlapping = [...context]
    .sort((a, b) => a.call - b.call)
    .map((op, i) => shown(i + 1, op.exchange, op.client, false, op.after, op.before));
  const partial = {
    id,
    title: titleOf(failure.signature),
    seed,
    phase: 'concurrent' as const,
    exchanges,
    ...(overlapping.length ? { overlapping } : {}),
  };
  return {
    ...partial,
    signature: failure.signature,
    level: 'MUST',
    foundAfterMs,
    expected: failure.expected,
    message: `round ${round}: ${failure.message}`,
    confirmed: 'a race: not run again (the smallest non-linearizable part of the history is shown)',
    script: script(partial, url, 'any instance (the ids are not used by anybody else)', launch),
    svg: timeline(exchanges),
  };
}

export type { Pool };

/**
 * A reader the readers' check found lying, as the explorer's defect: the named defect the rules give it,
 * and the check's requests (its writes, then its reads through every reader) as its history and script.
 */
function liarDefect(
  id: string,
  seed: number,
  liar: Liar,
  exchanges: readonly Exchange[],
  launch?: Launch,
): Defect {
  const history = exchanges.map(
    ({ request, response }, i): ShownExchange => ({
      n: i + 1,
      method: request.method,
      url: request.url,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      status: response.status,
      ...(response.headers['content-type'] ? { contentType: response.headers['content-type'] } : {}),
      answer: response.body,
      call: 0,
      ret: 0,
    }),
  );
  const signature = liar.found.signature;
  const partial = { id, title: titleOf(signature), seed, phase: 'sequential' as const, exchanges: history };
  const base = history[0] ? new URL(history[0].url).origin : '';
  return {
    ...partial,
    signature,
    level: liar.found.level,
    foundAfterMs: 0,
    expected: `${liar.reader} shows what the other reader and the model show after the check's writes`,
    message: liar.found.message,
    confirmed: `named by the readers' check before the exploration, as the rules name it; ${liar.reader} is not judged again, and the reads go through the reader that does not lie`,
    script: script(partial, base, 'any instance (the ids are not used by anybody else)', launch),
  };
}

/** A section B race no order of its changes explains, as a concurrent defect: one lane per change. */
function raceDefect(
  id: string,
  seed: number,
  race: AppRace,
  foundAfterMs: number,
  url: string,
  round: number,
  launch?: Launch,
): Defect {
  const failure = race.failure as NonNullable<AppRace['failure']>;
  const ordered = [
    ...race.before.map((o) => ({ exchange: o.exchange, client: 0, before: true, after: false })),
    ...[...race.race]
      .sort((a, b) => a.exchange.call - b.exchange.call)
      .map((o) => ({ exchange: o.exchange, client: o.client, before: false, after: false })),
    ...race.after.map((o) => ({ exchange: o.exchange, client: 0, before: false, after: true })),
  ];
  const exchanges = ordered.map((o, i) => shown(i + 1, o.exchange, o.client, false, o.after, o.before));
  const signature = failure.disagreement.signature;
  const partial = { id, title: titleOf(signature), seed, phase: 'concurrent' as const, exchanges };
  return {
    ...partial,
    signature,
    level: 'MUST',
    foundAfterMs,
    expected: failure.expected,
    message: `round ${round} (${race.pattern}): no order of the changes sent at once explains their answers and the read after them; in the order that goes furthest (changes ${failure.order.map((i) => i + 1).join(', ')}), ${failure.disagreement.message}`,
    confirmed: 'a race: not run again (every order of the changes was tried against the model)',
    script: script(partial, url, 'any instance (the app is not used by anybody else)', launch),
    svg: timeline(exchanges),
  };
}
