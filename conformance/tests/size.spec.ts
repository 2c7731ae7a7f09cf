// Consequences along the size axis (docs/coverage.md): the list holds every user beyond the sizes
// implementations commonly cap at (1,000 and 10,000), one rule within its time (90 s by default).
import { expect } from '@playwright/test';
import { REQUEST_TIMEOUT_MS } from '../support/exchange.ts';
import { exited, markUnresponsive, unresponsive } from '../support/health.ts';
import { type Api, expectOn, type Reply } from '../support/http.ts';
import { observed } from '../support/judged.ts';
import { judgeBulk, judgeServerErrors, outcome } from '../support/judged-races.ts';
import { step as judgedStep, type Step } from '../support/judged-users.ts';
import { rawBody, rawExchange, rawStatus, rawTransportFailure } from '../support/raw.ts';
import { CouldNotFinish, OutOfTimeError, rule, test } from '../support/rule.ts';
import { transportFailure } from '../support/transport.ts';
import { givenUser, isolated, readListing, removeUser } from '../support/users.ts';

const STEPS = [1_001, 10_001];

const USERS = '/UserService/users';

/** The bulk's PUT of `id`: its form, and its answer as the rules read one (a Reply). */
const putForm = (id: number) => `id=${id}&name=size-${id}&profession=p`;
const putReply = (id: number, status: number, headers: Record<string, string>, body: Buffer): Reply => ({
  method: 'PUT',
  path: `${USERS} (id=${id})`,
  status,
  headers,
  body,
  text: body.toString('utf8'),
});

/**
 * One PUT of the bulk, through Node's fetch: ten thousand requests through Playwright's request
 * context take several times longer (56 s against 9 s here for the self-test's implementation).
 */
async function bulkPut(api: Api, id: number): Promise<Reply | 'lost'> {
  let response: Response;
  let body: Buffer;
  try {
    response = await fetch(api.baseUrl + USERS, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: putForm(id),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    body = Buffer.from(await response.arrayBuffer());
  } catch (err) {
    // fetch says what happened in the cause: named as Api.send names it (support/transport.ts).
    const cause = (err as { cause?: { name?: string; message?: string; code?: string } }).cause;
    const detail = `${(err as Error).name} ${(err as Error).message} ${cause?.name ?? ''}: ${cause?.message ?? ''} ${cause?.code ?? ''}`;
    const found = transportFailure(detail, `PUT ${USERS} (id=${id})`, REQUEST_TIMEOUT_MS);
    if (found?.kind === 'no answer' || found?.kind === 'body did not end') {
      markUnresponsive(`${found.text} (in USR-SIZE-01)`);
      throw new CouldNotFinish(found.text);
    }
    if (found?.kind === 'refused') {
      await new Promise((r) => setTimeout(r, 500)); // the exit is recorded a moment after
      const why = api.gone() ?? exited();
      throw new CouldNotFinish(why ? `${why}: ${found.text}` : found.text);
    }
    // A kept-alive connection the implementation closed as this PUT was sent (its keep-alive timeout,
    // passed while the machine was too busy for fetch to retire the connection first), or its exit:
    // whether the PUT took effect is for a read to say (settle below; a read refused says the exit),
    // never a verdict on the answer.
    if (found?.kind === 'closed before answering') return 'lost';
    throw found ? new Error(found.text) : err;
  }
  return putReply(id, response.status, Object.fromEntries(response.headers), body);
}

/** How long the answer on a new connection may stay quiet before what came counts as all of it (support/http.ts rawRequest's). */
const QUIET_MS = 800;

/**
 * The bulk's PUT sent again on a connection of its own (support/raw.ts: `Connection: close`, no pool): a
 * new connection cannot be one the implementation closed while idle, so no answer on it is the
 * implementation's doing. Its answer is read until the implementation closes the connection (or
 * QUIET_MS pass without a byte), as a raw HEAD is.
 */
async function putOnNewConnection(api: Api, id: number): Promise<Reply> {
  const request = `PUT ${USERS} (id=${id}) on a new connection`;
  try {
    const reply = await rawExchange(api.baseUrl, 'PUT', USERS, {
      quietMs: QUIET_MS,
      timeoutMs: REQUEST_TIMEOUT_MS,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: putForm(id),
    });
    return putReply(id, rawStatus(reply), reply.headers, rawBody(reply));
  } catch (err) {
    const found = rawTransportFailure(err, request, REQUEST_TIMEOUT_MS);
    throw found ? new Error(found.text) : err;
  }
}

/** What became of the bulk's PUTs whose connection closed before any answer. */
interface Lost {
  stored: number;
  sentAgain: number;
}
/**
 * A PUT whose connection closed before any answer, the implementation running: GET by id says whether it
 * took effect (then it is counted, with nothing to judge: no answer came); if not, it is sent again on a
 * connection of its own, and that answer is judged.
 */
async function settle(api: Api, id: number, lost: Lost): Promise<Reply | undefined> {
  const read = await api.get(`/UserService/users/${id}`);
  const seen = observed(read);
  if (read.status === 200 && seen.body.kind === 'user' && seen.body.user?.name === `size-${id}`) {
    lost.stored++;
    return undefined;
  }
  lost.sentAgain++;
  return putOnNewConnection(api, id);
}
const BATCH = 50;
/**
 * The share of the rule's time the creates may take: the rest is for the lists and, on a shared target,
 * for deleting what was created. Past it the rule could not finish, and says how far it got: time is
 * never the verdict.
 */
const CREATE_SHARE = 0.5;

/** Stops the rule once creating has used its share of the time (none when Playwright has no timeout). */
function checkCreateBudget(started: number, created: number, total: number): void {
  const timeoutMs = test.info().timeout;
  const elapsedMs = Date.now() - started;
  if (timeoutMs === 0 || elapsedMs <= timeoutMs * CREATE_SHARE || created >= total) return;
  const perSecond = created / (elapsedMs / 1000);
  throw new OutOfTimeError(
    `created ${created} of ${total} users in ${(elapsedMs / 1000).toFixed(1)} s (${perSecond.toFixed(0)} per second: ` +
      `all of them would take about ${(total / perSecond).toFixed(0)} s); creating may take half of the rule's ` +
      `${timeoutMs / 1000} s. A slower implementation needs more time: --timeout MS`,
  );
}

test(
  ...rule('USR-SIZE-01', async (ctx) => {
    const started = Date.now();
    const { api, fresh } = await isolated(ctx);
    // A user of its own first: its steps judge the answers and learn what this implementation's words mean.
    await givenUser(ctx, api);
    // Consecutive ids of this rule, far from those of the other rules (random ids start at 10^9).
    const base = 1_500_000_000 + Math.floor(Math.random() * 100_000) * 1000;
    const total = STEPS[STEPS.length - 1] as number;
    const ids = Array.from({ length: total }, (_, i) => base + i);
    let created = 0;
    /** The bulk's PUTs that did not answer success (the rule's finding): the list is not judged on them. */
    const refused = new Set<number>();
    /** The PUT of a new id sent alone, once a PUT of the bulk did not answer success; its id follows the bulk's. */
    let alone: Step | undefined;
    const aloneId = base + total;
    const lost: Lost = { stored: 0, sentAgain: 0 };
    if (!fresh)
      ctx.cleanup(async () => {
        for (let i = 0; i < created; i += BATCH)
          await Promise.all(ids.slice(i, Math.min(i + BATCH, created)).map((id) => removeUser(api, id)));
        if (alone) await removeUser(api, aloneId);
      });
    for (const step of STEPS) {
      while (created < step) {
        const stalled = unresponsive();
        if (stalled)
          throw new CouldNotFinish(`created ${created} of ${total} users; earlier in the run, ${stalled}`);
        const batch = ids.slice(created, Math.min(created + BATCH, step));
        created += batch.length;
        const answers = await Promise.all(
          batch.map(async (id) => {
            const reply = await bulkPut(api, id);
            return reply === 'lost' ? settle(api, id, lost) : reply;
          }),
        );
        // A PUT of the bulk answered otherwise than success: the first such answer has a PUT of a new id
        // sent alone through the model (with its read-back), which names what that is (a create that
        // answers failure, a PUT that does what POST does); the list below judges what was stored.
        await judgeServerErrors(api, answers);
        for (const [i, id] of batch.entries()) {
          const reply = answers[i];
          if (!reply) continue;
          const said = outcome(api, reply);
          if (said === 'success') continue;
          refused.add(id);
          // A word outside the spec's two, or a server error: named already (outcome, judgeServerErrors).
          const seen = observed(reply);
          const word = seen.body.kind === 'result' ? seen.body.word : undefined;
          if (reply.status >= 500 || (word !== undefined && word !== 'failure')) continue;
          alone ??= await judgedStep(api, {
            kind: 'put',
            user: { id: aloneId, name: `size-${aloneId}`, profession: 'p' },
          });
          // Nothing the model can name (the PUT alone is as the spec says): the answer fails the rule.
          if (!alone.found.length) expectOn(reply, said, `creating ${step} users`).toBe('success');
        }
        checkCreateBudget(started, created, total);
      }
      const { users } = await readListing(api);
      const own = new Set(
        users.map((u) => Number(u.id.trim())).filter((id) => id >= base && id < base + step),
      );
      // The users whose PUT answered success (a PUT answered otherwise is stored or not: its answer is the finding).
      const due = ids.slice(0, step).filter((id) => !refused.has(id));
      const missing = due.filter((id) => !own.has(id));
      // Left out by the list, or lost by the writes: told apart by GET by id.
      if (missing.length)
        await judgeBulk(
          api,
          due.map((id) => ({ id, name: '', profession: '' })),
          new Set([...own].map(String)),
        );
      expect(
        missing.length,
        `of ${step} users just created (${due.length} answered success), how many one GET of the list misses (${users.length} listed)`,
      ).toBe(0);
    }
    ctx.observe(`${total} users created and listed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (lost.stored + lost.sentAgain)
      ctx.observe(
        `${lost.stored + lost.sentAgain} PUTs' connections closed before any answer: ${lost.stored} found stored ` +
          `(GET by id), ${lost.sentAgain} sent again on a connection of their own`,
      );
  }),
);
