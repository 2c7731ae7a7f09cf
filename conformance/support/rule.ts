/**
 * `rule(id, body)` declares the test of one catalogue rule: the title carries the id and level
 * (`USR-PUT-03 [MUST] …`), the tags `@MUST`/`@SHOULD`/`@INFO` allow `--grep @MUST`, and the body gets
 * a client for the target, a way to get a fresh instance, cleanups, and `observe()` for INFO rules.
 *
 * INFO rules never fail: whatever happens, the test passes and records an observation. SHOULD rules
 * fail like any test; the reporter counts them as warnings and keeps the run green (both by
 * `statusOf` in rules/types.ts). A `warning`
 * annotation (a stop of the rule's instance that needed SIGKILL) is reported as a warning too.
 *
 * Annotations the reporter reads: `setup-error` (could not set up), `unfinished` (could not finish: a
 * CouldNotFinish was thrown), `progress` (how far the rule got: kept up to date, and left only on a rule
 * that Playwright timed out). A failure attaches the exchange it carries (support/failures.ts; `expectOn`
 * and `failOn` in support/http.ts make such failures), else the last one the rule sent.
 */
import { type APIRequestContext, request as playwrightRequest, type TestInfo, test } from '@playwright/test';
import { type Disagreement, headBody, signatureKey } from '../model/index.ts';
import { COULD_NOT_CHECK } from '../report/summary.ts';
import { ruleById, statusOf } from '../rules/index.ts';
import type { Exchange } from './exchange.ts';
import { CouldNotFinish, carriedExchange, RuleSkipped } from './failures.ts';
import { exited, markSharedBroken, sharedBroken } from './health.ts';
import { Api, ExchangeLog } from './http.ts';
import { corruption, modelOf, representationOf } from './judged.ts';
import { restarted } from './judged-users.ts';
import { liars } from './liars.ts';
import { checkReaders, couldNotCheck, ownLiars, readerOf } from './readers.ts';
import { type Instance, resolvedTarget, startFreshInstance } from './target.ts';

export { CouldNotFinish, OutOfTimeError } from './failures.ts';

export interface RuleContext {
  api: Api;
  /** A new instance with an empty collection (skips the rule, with the reason, when none can be had). */
  fresh(): Promise<{ api: Api; instance: Instance; restart(): Promise<Api> }>;
  /**
   * Runs after the body, whatever happens (cleanup of created data). A cleanup that throws fails the
   * rule (`could not clean up: …`, annotation `cleanup-error`); an INFO rule records it as an observation.
   */
  cleanup(fn: () => Promise<unknown>): void;
  /** Runs a set-up step: whatever it throws is reported as `could not set up: <step>: <error>`. */
  setup<T>(step: string, fn: () => Promise<T>): Promise<T>;
  /**
   * After server errors: when the instance the rule is on answers every request with one (its state
   * broken for good), the rule goes on on an instance of its own, where one can be started (`api` then
   * points at it). True when it moved.
   */
  moveIfBroken(): Promise<boolean>;
  /** Records an observation in the report (INFO rules, and useful context for the others). */
  observe(text: string): void;
  /** Skips the rule with a reason. */
  skip(reason: string): never;
}

type Body = (ctx: RuleContext) => Promise<void>;

/**
 * A step the rule needs before it can check anything (creating the user it reads, starting its
 * instance) did not work: the rule is reported as not set up, not as failing its assertion. The
 * message names the step and the answer: `could not set up: PUT of user 12: 500 …`.
 */
export class SetupError extends Error {
  override name = 'SetupError';
  constructor(
    step: string,
    answer: string,
    /** The exchange of the step that did not work, when one answer decided it. */
    readonly exchange?: Exchange,
    /**
     * What the model found in the step (support/judged-users.ts): when the rule recorded one of these, a
     * defect stopped it, and the rule reports `could not check: <that finding>` (rule.ts judged).
     */
    readonly findings: readonly Disagreement[] = [],
  ) {
    super(`could not set up: ${step}: ${answer}`);
  }
}

/** A failure message that quotes a 5xx answer (`→ 500 …` or `answered 500 …`). */
const SERVER_ERROR_MESSAGE = / → 5\d\d |answered 5\d\d/;

const isSkip = (err: unknown) => err instanceof RuleSkipped;
const firstLine = (err: unknown): string => String((err as Error)?.message ?? err).split('\n')[0] ?? '';

/**
 * The arguments of `test()` for one rule; spec files write `test(...rule('USR-PUT-03', async (ctx) => …))`
 * so that Playwright places the test at its line in the spec file.
 */
export function rule(
  id: string,
  body: Body,
): [
  string,
  { tag: string[]; annotation: Array<{ type: string; description: string }> },
  (fixtures: { request: APIRequestContext }, testInfo: TestInfo) => Promise<void>,
] {
  const def = ruleById(id);
  // An INFO rule records what it saw: what would fail another rule is an observation of it.
  const recordsOnly = statusOf(def.level, 'failed') === 'info';
  return [
    `${id} [${def.level}] ${def.title}`,
    {
      tag: [`@${def.level}`],
      annotation: [
        { type: 'rule', description: id },
        ...def.statements.map((anchor) => ({ type: 'statement', description: anchor })),
      ],
    },
    async ({ request }, testInfo) => {
      const target = resolvedTarget();
      const cleanups: Array<() => Promise<unknown>> = [];
      // Every request of the rule, so that a failure carries the exchange that decided it.
      const log = new ExchangeLog();
      // How far the rule got, kept up to date: what a rule that Playwright timed out reports.
      const progress = { type: 'progress', description: 'no request sent yet' };
      testInfo.annotations.push(progress);
      log.progress = (text) => {
        progress.description = text;
      };
      const observe = (text: string) => testInfo.annotations.push({ type: 'observation', description: text });
      const skip = (reason: string): never => {
        throw new RuleSkipped(reason);
      };
      const ctx: RuleContext = {
        api: new Api(request, target.baseUrl, log, exited),
        async fresh() {
          if (target.noFreshReason) skip(target.noFreshReason);
          // A stop that needed SIGKILL is reported on the rule that asked for the instance.
          const instance = await ctx.setup('start a fresh instance', () =>
            startFreshInstance((text) => testInfo.annotations.push({ type: 'warning', description: text })),
          );
          cleanups.push(() => instance.stop());
          modelOf(log).markFresh(instance.url);
          return {
            api: new Api(request, instance.url, log, () => instance.exited()),
            instance,
            // After a restart, a client on new connections (the old keep-alive sockets are dead).
            async restart() {
              await instance.restart();
              const context = await playwrightRequest.newContext();
              cleanups.push(() => context.dispose());
              const after = new Api(context, instance.url, log, () => instance.exited());
              await restarted(after);
              return after;
            },
          };
        },
        cleanup: (fn) => cleanups.push(fn),
        async setup(step, fn) {
          try {
            return await fn();
          } catch (err) {
            if (isSkip(err) || err instanceof SetupError || err instanceof CouldNotFinish) throw err;
            throw new SetupError(step, firstLine(err), carriedExchange(err));
          }
        },
        moveIfBroken: () => moveIfBroken(),
        observe,
        skip,
      };
      const attachExchange = (exchange: Exchange) =>
        testInfo.attach('exchange', {
          body: JSON.stringify(exchange, null, 2),
          contentType: 'application/json',
        });
      /**
       * What the model found (support/judged.ts) decides, and names the cause: each disagreement is a
       * `signature` annotation (the report groups them into defects), and a rule with a disagreement
       * of its level fails with it, ahead of whatever symptom its own assertion then met.
       */
      type Thrown = { error: unknown; decidedBy?: Exchange };
      /** The exchange a failure carries, else the last one the rule sent. */
      const exchangeOf = (err: unknown) => carriedExchange(err) ?? log.exchanges.at(-1);
      const judged = async (found: Thrown | undefined): Promise<Thrown | undefined> => {
        // A server error that decided the rule, while every request fails: the service's state is broken.
        const decided = found && exchangeOf(found.error);
        const message = String((found?.error as Error)?.message ?? found?.error);
        const serverError =
          decided?.response.status !== undefined &&
          (decided.response.status >= 500 || SERVER_ERROR_MESSAGE.test(message));
        if (found && !isSkip(found.error) && decided && serverError && !modelOf(log).findings.length) {
          const broken = await corruption(ctx.api).catch(() => undefined);
          if (broken)
            modelOf(log).add([broken], {
              method: decided.request.method,
              path: decided.request.url,
              status: decided.response.status,
              headers: decided.response.headers,
              body: Buffer.from(decided.response.body),
              text: decided.response.body,
              exchange: decided,
            });
        }
        const findings = modelOf(log).findings;
        for (const f of findings)
          testInfo.annotations.push({
            type: 'signature',
            description: JSON.stringify({ ...f.signature, level: f.level, message: f.message }),
          });
        if (recordsOnly) {
          for (const f of findings) observe(`disagrees with the spec: ${f.message}`);
          return found;
        }
        const failing = findings.filter((f) => f.level === 'MUST' || def.level === 'SHOULD');
        // A set-up step stopped by a defect the rule recorded on the way (a user it cannot create): the
        // rule could not check what it is about, and says by which defect. It fails by that defect when
        // the defect is of its level (run alone, the rule still reports it), else it is skipped.
        if (found?.error instanceof SetupError) {
          const keys = new Set(found.error.findings.map((d) => signatureKey(d.signature)));
          const cause = findings.filter((f) => keys.has(signatureKey(f.signature)));
          const because = `${COULD_NOT_CHECK}${cause.map((f) => f.message).join('; ')}`;
          const decisive = cause.filter((f) => failing.includes(f));
          if (decisive.length) return { error: new Error(because), decidedBy: decisive[0]?.exchange };
          if (cause.length) return { error: new RuleSkipped(because) };
        }
        // A set-up step stopped by a service whose every request fails: the rule fails because of that
        // defect (any other state the spec's operations cannot reach stays "could not set up").
        if (failing.some((f) => f.signature.aspect === 'corrupted') && found?.error instanceof SetupError)
          found = { error: new Error(found.error.message) };
        if (!failing.length && found && !(found.error instanceof SetupError)) {
          // An assertion of the rule's own, on an answer in the wrong representation: named as that.
          // An HTTP client that chokes on bytes after a HEAD answer: HEAD sends a body.
          if (/Parse Error: Data after/.test(message)) {
            const d = headBody(firstLine(found.error));
            testInfo.annotations.push({
              type: 'signature',
              description: JSON.stringify({ ...d.signature, level: d.level, message: d.message }),
            });
          }
          const wrong = representationOf(exchangeOf(found.error));
          if (wrong)
            testInfo.annotations.push({
              type: 'signature',
              description: JSON.stringify({ ...wrong.signature, level: wrong.level, message: wrong.message }),
            });
        }
        if (!failing.length || found?.error instanceof SetupError) return found;
        const then = found ? `\nthen: ${firstLine(found.error)}` : '';
        return {
          error: new Error(`${failing.map((f) => `${f.message}\n  ${f.shown}`).join('\n')}${then}`),
          decidedBy: failing[0]?.exchange,
        };
      };
      /** What shows the instance at `baseUrl` broken for good (its list answers a server error), or undefined. */
      const brokenFor = async (baseUrl: string) => {
        const found = await corruption(new Api(request, baseUrl, new ExchangeLog(), exited)).catch(
          () => undefined,
        );
        return found?.message;
      };
      /** Moves the rest of the rule onto an instance of its own, stopped after every other cleanup. */
      const moveToOwnInstance = async (why: string) => {
        const instance = await ctx.setup('start an instance of its own', () =>
          startFreshInstance((text) => testInfo.annotations.push({ type: 'warning', description: text })),
        );
        cleanups.unshift(() => instance.stop());
        ctx.api = new Api(request, instance.url, log, () => instance.exited());
        observe(`ran on an instance of its own: ${why}`);
      };
      const moveIfBroken = async () => {
        if (target.noFreshReason) return false;
        const reason = await brokenFor(ctx.api.baseUrl);
        if (!reason) return false;
        if (ctx.api.baseUrl === target.baseUrl) markSharedBroken(reason);
        await moveToOwnInstance(`the one it was on broke (${reason})`);
        return true;
      };
      let thrown: Thrown | undefined;
      try {
        // The shared instance broken for good (an earlier rule found its state corrupted, and it still
        // answers server errors): the corruption must not stop every later rule before it checks anything.
        const broken = sharedBroken();
        if (broken && !target.noFreshReason) await moveToOwnInstance(`the shared one is broken (${broken})`);
        // Which reader lies, known before the rule reads through one (support/readers.ts); the rule
        // about that reader fails with its defect, as the check saw it.
        await checkReaders(request);
        const own = ownLiars(id);
        if (own.length) for (const { found, reply } of own) modelOf(log).add([found], reply);
        else if (recordsOnly) {
          try {
            await body(ctx);
          } catch (err) {
            if (isSkip(err) || err instanceof CouldNotFinish) throw err;
            observe(`could not observe: ${firstLine(err)}`);
          }
        } else {
          await body(ctx);
        }
      } catch (err) {
        thrown = { error: err };
      }
      if (!thrown || !isSkip(thrown.error)) thrown = await judged(thrown);
      // Failed (or not set up) reading through a reader known to lie, and for nothing but what reads
      // showed: not checked, for that reader's defect, and no failure of its own.
      // Passed, but with a write it could not judge for a reader that lies: not checked either.
      const blocked = thrown
        ? !recordsOnly && !isSkip(thrown.error) && !(thrown.error instanceof CouldNotFinish) && blockedBy(log)
        : !recordsOnly && modelOf(log).unjudged;
      if (blocked) {
        testInfo.annotations.push({
          type: 'blocked-by',
          description: JSON.stringify(blocked.found.signature),
        });
        thrown = { error: new RuleSkipped(couldNotCheck(blocked)) };
      }
      if (thrown) {
        const err = thrown.error;
        if (err instanceof SetupError)
          testInfo.annotations.push({ type: 'setup-error', description: err.message });
        // Could not finish: no exchange decided anything; the reason says how far the rule got.
        if (err instanceof CouldNotFinish)
          testInfo.annotations.push({
            type: 'unfinished',
            description: `could not finish: ${err.message} (${log.exchanges.length} requests of the rule answered before)`,
          });
        // The exchange the model's finding names; else the one the failure carries; else the last one sent.
        const exchange =
          isSkip(err) || err instanceof CouldNotFinish ? undefined : (thrown.decidedBy ?? exchangeOf(err));
        if (exchange) await attachExchange(exchange);
      }
      const problems: string[] = [];
      let unfinished: CouldNotFinish | undefined;
      let cleanupExchange: Exchange | undefined;
      // First, the model's probe users on the target (a fresh instance's go with it): the rule's own
      // removals come after them, as without a probe (a removal held back waits for the next write).
      const probes = modelOf(log)
        .probes.filter(({ api }) => api.baseUrl === target.baseUrl)
        .map(
          ({ api, id }) =>
            () =>
              api.del(id),
        );
      for (const fn of [...probes, ...cleanups.reverse()])
        await fn().catch((err) => {
          if (err instanceof CouldNotFinish) unfinished ??= err;
          else problems.push(firstLine(err));
          cleanupExchange ??= carriedExchange(err);
        });
      // The rule ended (body and cleanups): how far it got is in its outcome, not a note of its own.
      testInfo.annotations.splice(testInfo.annotations.indexOf(progress), 1);
      const cleanupError = problems.length ? `could not clean up: ${problems.join('; ')}` : undefined;
      if (cleanupError && !thrown && SERVER_ERROR_MESSAGE.test(cleanupError)) {
        const broken = await corruption(ctx.api).catch(() => undefined);
        if (broken)
          testInfo.annotations.push({
            type: 'signature',
            description: JSON.stringify({
              ...broken.signature,
              level: broken.level,
              message: broken.message,
            }),
          });
      }
      if (cleanupError && recordsOnly) observe(cleanupError);
      else if (cleanupError) testInfo.annotations.push({ type: 'cleanup-error', description: cleanupError });
      // The corruption met on the shared instance: recorded for the later rules when it still answers so.
      const corrupted = testInfo.annotations.some(
        (a) => a.type === 'signature' && JSON.parse(a.description as string).aspect === 'corrupted',
      );
      if (corrupted && !target.noFreshReason && !sharedBroken()) {
        const reason = await brokenFor(target.baseUrl);
        if (reason) markSharedBroken(reason);
      }
      // A failed cleanup is this rule's own failure, but never hides the body's error.
      if (thrown?.error instanceof RuleSkipped) test.skip(true, thrown.error.message);
      if (thrown) throw thrown.error;
      if (cleanupError && !recordsOnly) {
        if (cleanupExchange) await attachExchange(cleanupExchange);
        throw new Error(cleanupError);
      }
      // Checked, but its cleanup could not finish (the implementation stopped answering).
      if (unfinished) {
        testInfo.annotations.push({
          type: 'unfinished',
          description: `could not finish: cleaning up: ${unfinished.message}`,
        });
        throw unfinished;
      }
    },
  ];
}

/**
 * The lying reader a failed rule read through, when what it found is about reads only (its own
 * assertions, the readers' disagreements): then it could only be judged through that reader.
 */
function blockedBy(log: ExchangeLog) {
  const known = liars();
  if (!known.length) return undefined;
  const read = new Set(log.exchanges.map(readerOf));
  // Or a write the lying reader left unjudged (its own assertions then judge through that reader).
  const liar = known.find((l) => read.has(l.reader)) ?? modelOf(log).unjudged;
  if (!liar) return undefined;
  const readerFinding = (operation: string) => known.some((l) => operation.startsWith(l.reader));
  const others = modelOf(log).findings.filter((f) => !readerFinding(f.signature.operation));
  return others.length ? undefined : liar;
}

export { test };
