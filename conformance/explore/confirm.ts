/**
 * A failure found, shrunk and confirmed: a failing sequence is shrunk on clean ids (shrink.ts), its
 * input set aside when plain inputs fail the same way, run again on a fresh instance when one can be
 * had, and read back for its signature (diagnose.ts), as a sequential defect. Also the checks the
 * concurrent phase makes of a failed round: a list that fails for good after it, and its operations
 * sent one after the other.
 */
import { isKnown } from '../model/findings.ts';
import { inputHeld } from '../model/index.ts';
import { failsForGood } from '../support/for-good.ts';
import { ASYNC_TIMEOUT_MS } from '../support/removal.ts';
import { send } from './client.ts';
import type { Recorded } from './concurrent.ts';
import { type Defect, shown, titleOf } from './defect.ts';
import { diagnose } from './diagnose.ts';
import { type Disagreement, type Signature, signatureKey } from './model.ts';
import type { Operation } from './operations.ts';
import type { Rng } from './prng.ts';
import { type Launch, script } from './render.ts';
import {
  type Instance,
  onFresh,
  replay,
  type SequenceResult,
  type SetAside,
  type Where,
} from './sequence.ts';
import { plainInputs, shrink } from './shrink.ts';
import { ownedPool } from './values.ts';

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

/** What every read of the list answered when, over a few seconds, all failed (support/for-good.ts); else undefined. */
export const listFailsForGood = (url: string) =>
  failsForGood(async () => {
    const list = await send(url, { method: 'GET', path: '/UserService/users', headers: {} });
    if (list.observation && list.observation.status < 500) return undefined;
    return list.observation ? String(list.observation.status) : `nothing (${list.error})`;
  });

/**
 * The operations of a round sent one after the other (in the order of their calls, then of their
 * returns) on new ids: the first order whose sequence disagrees with the model, with the signature.
 */
export async function withoutConcurrency(
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

export interface Found {
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
export async function shrinkAndConfirm(seen: Found): Promise<Defect | undefined> {
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
  let diagnosed = await diagnose(diagnoseOn, shrunk.ops, found.setAside, found.level);
  // Nothing named on a fresh instance: the cause may be a user of the current one that the sequence did
  // not write (another user with the fields a PUT sent, model refusalCause), so read back there too.
  if (diagnosed === undefined && scope === 'owned' && found.freshInstance)
    diagnosed = await diagnose(await clean(), shrunk.ops, found.setAside, found.level);
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
