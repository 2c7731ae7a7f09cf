/**
 * `rule(id, body)` declares the test of one catalogue rule: the title carries the id and level
 * (`USR-PUT-03 [MUST] …`), the tags `@MUST`/`@SHOULD`/`@INFO` allow `--grep @MUST`, and the body gets
 * a client for the target, a way to get a fresh instance, cleanups, and `observe()` for INFO rules.
 *
 * INFO rules never fail: whatever happens, the test passes and records an observation. SHOULD rules
 * fail like any test; the reporter counts them as warnings and keeps the run green (both by
 * `statusOf` in rules.ts). A `warning`
 * annotation (a stop of the rule's instance that needed SIGKILL) is reported as a warning too.
 */
import { type APIRequestContext, request as playwrightRequest, type TestInfo, test } from '@playwright/test';
import { ruleById, statusOf } from '../rules.ts';
import { Api, ExchangeLog } from './http.ts';
import { type Instance, resolvedTarget, startFreshInstance } from './target.ts';

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
  constructor(step: string, answer: string) {
    super(`could not set up: ${step}: ${answer}`);
  }
}

/**
 * The rule ran out of the time it gives a step (USR-SIZE-01's creates): a failure that no single
 * exchange decided, so none is attached. The message says how far the step got.
 */
export class OutOfTimeError extends Error {
  override name = 'OutOfTimeError';
}

const isSkip = (err: unknown) =>
  (err as { name?: string }).name === 'SkipError' || String(err).includes('Test is skipped');
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
      const observe = (text: string) => testInfo.annotations.push({ type: 'observation', description: text });
      const skip = (reason: string): never => {
        test.skip(true, reason);
        throw new Error('unreachable');
      };
      const ctx: RuleContext = {
        api: new Api(request, target.baseUrl, log),
        async fresh() {
          if (target.noFreshReason) skip(target.noFreshReason);
          // A stop that needed SIGKILL is reported on the rule that asked for the instance.
          const instance = await ctx.setup('start a fresh instance', () =>
            startFreshInstance((text) => testInfo.annotations.push({ type: 'warning', description: text })),
          );
          cleanups.push(() => instance.stop());
          return {
            api: new Api(request, instance.url, log),
            instance,
            // After a restart, a client on new connections (the old keep-alive sockets are dead).
            async restart() {
              await instance.restart();
              const context = await playwrightRequest.newContext();
              cleanups.push(() => context.dispose());
              return new Api(context, instance.url, log);
            },
          };
        },
        cleanup: (fn) => cleanups.push(fn),
        async setup(step, fn) {
          try {
            return await fn();
          } catch (err) {
            if (isSkip(err) || err instanceof SetupError) throw err;
            throw new SetupError(step, firstLine(err));
          }
        },
        observe,
        skip,
      };
      let thrown: { error: unknown } | undefined;
      try {
        if (recordsOnly) {
          try {
            await body(ctx);
          } catch (err) {
            if (isSkip(err)) throw err;
            observe(`could not observe: ${firstLine(err)}`);
          }
        } else {
          await body(ctx);
        }
      } catch (err) {
        if (err instanceof SetupError)
          testInfo.annotations.push({ type: 'setup-error', description: err.message });
        const exchange =
          isSkip(err) || err instanceof OutOfTimeError
            ? undefined
            : log.deciding(String((err as Error)?.message ?? err));
        if (exchange)
          await testInfo.attach('exchange', {
            body: JSON.stringify(exchange, null, 2),
            contentType: 'application/json',
          });
        thrown = { error: err };
      }
      const problems: string[] = [];
      for (const fn of cleanups.reverse()) await fn().catch((err) => problems.push(firstLine(err)));
      const cleanupError = problems.length ? `could not clean up: ${problems.join('; ')}` : undefined;
      if (cleanupError && recordsOnly) observe(cleanupError);
      else if (cleanupError) testInfo.annotations.push({ type: 'cleanup-error', description: cleanupError });
      // A failed cleanup is this rule's own failure, but never hides the body's error.
      if (thrown) throw thrown.error;
      if (cleanupError && !recordsOnly) throw new Error(cleanupError);
    },
  ];
}

export { test };
