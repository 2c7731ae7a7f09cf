// SPEC.md B: the asynchronous case, on workers (202 with {}, the resource removed afterwards).
import { sectionBNotServed } from '../model/fixtures.ts';
import { appPath } from '../model/formats.ts';
import { ASYNC_TIMEOUT_MS, createWorker, isObject, type Json, jsonOf, newApp, ok } from '../support/apps.ts';
import { expectOn } from '../support/http.ts';
import { awaitRemoval, stepApp } from '../support/judged-apps.ts';
import { rule, test } from '../support/rule.ts';

test(
  ...rule('APP-WRK-01', async (ctx) => {
    const app = newApp();
    const { reply } = await stepApp(ctx.api, { kind: 'worker-create', app, command: 'conformance-check' });
    if (!ok(reply)) ctx.skip(sectionBNotServed('workers', reply.status));
    let body: unknown;
    try {
      body = JSON.parse(reply.text);
    } catch {}
    const id = isObject(body) && body.id !== undefined ? String(body.id) : undefined;
    if (id !== undefined) ctx.cleanup(() => ctx.api.send('DELETE', appPath(app, 'workers', id)));
    if (reply.status !== 200 && reply.status !== 201)
      ctx.skip(`the create was answered ${reply.status}; the rule covers 200 and 201`);
    body = jsonOf(reply);
    expectOn(reply, isObject(body) && id !== undefined, 'a JSON object with an id').toBe(true);
    const { reply: read } = await stepApp(ctx.api, { kind: 'worker-get', app, id: id as string });
    if (read.status === 200) {
      const shown = jsonOf(read);
      if (isObject(shown)) {
        const missing = Object.keys(shown).filter((k) => !(k in (body as Json)));
        expectOn(reply, missing, 'visible fields (GET) missing from the create answer').toEqual([]);
      }
    } else {
      ctx.observe(`GET of the worker answered ${read.status}: only the presence of an id was checked`);
    }
  }),
);

test(
  ...rule('APP-WRK-02', async (ctx) => {
    const worker = await createWorker(ctx, newApp());
    const { reply } = await stepApp(ctx.api, { kind: 'worker-delete', app: worker.app, id: worker.id });
    expectOn(reply, reply.status).toBe(202);
  }),
);

test(
  ...rule('APP-WRK-03', async (ctx) => {
    const worker = await createWorker(ctx, newApp());
    const { reply } = await stepApp(ctx.api, { kind: 'worker-delete', app: worker.app, id: worker.id });
    if (reply.status !== 202)
      ctx.skip(`DELETE of a worker was answered ${reply.status}, not 202 (see APP-WRK-02)`);
    expectOn(reply, jsonOf(reply), 'body of the 202').toEqual({});
  }),
);

test(
  ...rule('APP-WRK-04', async (ctx) => {
    const worker = await createWorker(ctx, newApp());
    const { app, id } = worker;
    const { reply: before } = await stepApp(ctx.api, { kind: 'worker-get', app, id });
    if (before.status !== 200)
      ctx.skip(`GET of a worker answered ${before.status}: its removal cannot be observed`);
    const { reply: del } = await stepApp(ctx.api, { kind: 'worker-delete', app, id });
    expectOn(del, del.status).toBeLessThan(300);
    // Read until it is no longer served, for at most ASYNC_TIMEOUT_MS (B-6 "eventually"; no fixed wait).
    const { reply: last, ms } = await awaitRemoval(ctx.api, app, id, ASYNC_TIMEOUT_MS);
    expectOn(
      last,
      last.status >= 200 && last.status <= 299,
      `the worker is still served ${ASYNC_TIMEOUT_MS} ms after the DELETE`,
    ).toBe(false);
    ctx.observe(`gone after about ${ms} ms (GET answers ${last.status})`);
  }),
);

test(
  ...rule('APP-WRK-05', async (ctx) => {
    const worker = await createWorker(ctx, newApp());
    await stepApp(ctx.api, { kind: 'worker-delete', app: worker.app, id: worker.id });
    const { reply: right } = await stepApp(ctx.api, { kind: 'worker-get', app: worker.app, id: worker.id });
    let state = '';
    try {
      const body = jsonOf(right);
      if (isObject(body) && 'state' in body) state = `, state ${JSON.stringify(body.state)}`;
    } catch {}
    ctx.observe(
      `worker fields: ${Object.keys(worker.body).join(', ')}; GET right after the DELETE: ${right.status}${state}`,
    );
  }),
);
