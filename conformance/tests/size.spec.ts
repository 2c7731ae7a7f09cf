// Consequences along the size axis (docs/coverage.md): the list holds every user beyond the sizes
// implementations commonly cap at (1,000 and 10,000), one rule within its time (90 s by default).
import { expect } from '@playwright/test';
import { type Reply, resultOf, show } from '../support/http.ts';
import { OutOfTimeError, rule, test } from '../support/rule.ts';
import { isolated, readListing, removeUser } from '../support/users.ts';

const STEPS = [1_001, 10_001];

/**
 * One PUT of the bulk, through Node's fetch: ten thousand requests through Playwright's request
 * context take several times longer (56 s against 9 s here for the self-test's implementation).
 */
async function bulkPut(baseUrl: string, id: number): Promise<Reply> {
  const path = '/UserService/users';
  const response = await fetch(baseUrl + path, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `id=${id}&name=size-${id}&profession=p`,
    signal: AbortSignal.timeout(15_000),
  });
  const body = Buffer.from(await response.arrayBuffer());
  return {
    method: 'PUT',
    path: `${path} (id=${id})`,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body,
    text: body.toString('utf8'),
  };
}
const BATCH = 50;
/**
 * The share of the rule's time the creates may take: the rest is for the lists and, on a shared target,
 * for deleting what was created. Past it the rule fails saying how far it got, not on a bare timeout.
 */
const CREATE_SHARE = 0.5;

/** Fails the rule once creating has used its share of the time (none when Playwright has no timeout). */
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
    // Consecutive ids of this rule, far from those of the other rules (random ids start at 10^9).
    const base = 1_500_000_000 + Math.floor(Math.random() * 100_000) * 1000;
    const total = STEPS[STEPS.length - 1] as number;
    const ids = Array.from({ length: total }, (_, i) => base + i);
    let created = 0;
    if (!fresh)
      ctx.cleanup(async () => {
        for (let i = 0; i < created; i += BATCH)
          await Promise.all(ids.slice(i, Math.min(i + BATCH, created)).map((id) => removeUser(api, id)));
      });
    for (const step of STEPS) {
      while (created < step) {
        const batch = ids.slice(created, Math.min(created + BATCH, step));
        created += batch.length;
        const answers = await Promise.all(batch.map((id) => bulkPut(api.baseUrl, id)));
        for (const reply of answers)
          expect(resultOf(reply), `creating ${step} users: ${show(reply)}`).toBe('success');
        checkCreateBudget(started, created, total);
      }
      const { users } = await readListing(api);
      const own = new Set(
        users.map((u) => Number(u.id.trim())).filter((id) => id >= base && id < base + step),
      );
      expect(
        own.size,
        `of ${step} users just created, how many one GET of the list holds (${users.length} listed)`,
      ).toBe(step);
    }
    ctx.observe(`${total} users created and listed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }),
);
