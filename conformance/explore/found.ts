/**
 * The defect records the explorer reports without shrinking them: a concurrent round's non-linearizable
 * history (its smallest witness), a section B race no order explains, and a reader the readers' check
 * found lying (its requests as evidence).
 */
import type { Liar } from '../model/index.ts';
import type { Exchange } from '../support/exchange.ts';
import type { AppRace } from './app-race.ts';
import { type Recorded, type RoundVerdict, SUCCESS_RESULT } from './concurrent.ts';
import { type Defect, type ShownExchange, shown, titleOf } from './defect.ts';
import { type Launch, script, timeline } from './render.ts';

export function concurrentDefect(
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

/**
 * A reader the readers' check found lying, as the explorer's defect: the named defect the rules give it,
 * and the check's requests (its writes, then its reads through every reader) as its history and script.
 */
export function liarDefect(
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
export function raceDefect(
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
