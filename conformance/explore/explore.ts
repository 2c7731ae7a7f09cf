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
 *
 * Here the driver and its settings; a failure is shrunk and confirmed in confirm.ts, and the defects of
 * rounds, races and liars are built in found.ts.
 */

import { firstSightings, isKnown } from '../model/findings.ts';
import { sectionBNotServed } from '../model/fixtures.ts';
import { appPath, createdId } from '../model/formats.ts';
import { serverErrorUnderConcurrency } from '../model/named-defects.ts';
import { checkExchanges, liars } from '../support/liars.ts';
import { ASYNC_TIMEOUT_MS } from '../support/removal.ts';
import { appRaceRound, RACE_PATTERNS } from './app-race.ts';
import { appRequest, appSequenceSource, type Created } from './apps.ts';
import { now, send } from './client.ts';
import { judgeRound, planRound, ROUND_SLOTS, runRound, serverErrorIn } from './concurrent.ts';
import { listFailsForGood, shrinkAndConfirm, withoutConcurrency } from './confirm.ts';
import { type Defect, titleOf } from './defect.ts';
import { firstUserChanged } from './diagnose.ts';
import { concurrentDefect, liarDefect, raceDefect } from './found.ts';
import { sequenceSource } from './generate.ts';
import { type Disagreement, observed, type Signature, signatureKey } from './model.ts';
import type { Operation } from './operations.ts';
import { rng } from './prng.ts';
import type { Launch } from './render.ts';
import { type Instance, listedNow, onFresh, runSequence, type Where } from './sequence.ts';
import { fillCount, ownedPool, type Pool, poolIds, valueAt } from './values.ts';

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

export type { Pool };
