// SPEC.md B: the response-body convention for changes, on domains (200/201 carry the full resource).
import { expect } from '@playwright/test';
import { sectionBNotServed } from '../model/fixtures.ts';
import { appPath } from '../model/formats.ts';
import { createDomain, ISO_UTC, isObject, type Json, jsonOf, newApp, ok, UUID } from '../support/apps.ts';
import { expectJsonUtf8, expectOn, mediaType, type Reply, randomText } from '../support/http.ts';
import { stepApp } from '../support/judged-apps.ts';
import { rule, test } from '../support/rule.ts';

const FIELDS = ['id', 'hostname', 'created_at', 'updated_at'] as const;

function expectFullDomain(body: unknown, reply: Reply): asserts body is Json {
  expectOn(reply, isObject(body), 'a JSON object').toBe(true);
  const missing = FIELDS.filter((f) => typeof (body as Json)[f] !== 'string' || (body as Json)[f] === '');
  expectOn(reply, missing, 'domain fields missing or not strings').toEqual([]);
}

function formatProblems(body: Json): string[] {
  // Only the fields present: a missing field is APP-DOM-01/03/04's finding, not a format problem.
  const problems: string[] = [];
  if ('id' in body && !UUID.test(String(body.id)))
    problems.push(`id ${JSON.stringify(body.id)} is not a UUID`);
  for (const f of ['created_at', 'updated_at']) {
    if (!(f in body)) continue;
    const v = String(body[f]);
    if (!ISO_UTC.test(v) || Number.isNaN(Date.parse(v)))
      problems.push(`${f} ${JSON.stringify(body[f])} is not an ISO 8601 UTC timestamp`);
  }
  return problems;
}

test(
  ...rule('APP-DOM-01', async (ctx) => {
    const app = newApp();
    const hostname = `${randomText('c')}.conformance.example`;
    const { reply } = await stepApp(ctx.api, { kind: 'domain-create', app, hostname });
    if (!ok(reply)) ctx.skip(sectionBNotServed('domains', reply.status));
    let body: unknown;
    try {
      body = JSON.parse(reply.text);
    } catch {}
    if (isObject(body) && typeof body.id === 'string') {
      const id = body.id;
      ctx.cleanup(() => ctx.api.send('DELETE', appPath(app, 'domains', id)));
    }
    if (reply.status !== 200 && reply.status !== 201)
      ctx.skip(`the create was answered ${reply.status}; the rule covers 200 and 201`);
    body = jsonOf(reply);
    expectFullDomain(body, reply);
    expect(String(body.hostname).toLowerCase(), 'hostname of the created domain').toBe(hostname);
  }),
);

test(
  ...rule('APP-DOM-02', async (ctx) => {
    const app = newApp();
    const domain = await createDomain(ctx, app);
    const bodies: Array<[string, Json]> = [['create', domain.body]];
    const { reply: patch } = await stepApp(ctx.api, {
      kind: 'domain-update',
      app,
      id: domain.id,
      hostname: `${randomText('p')}.conformance.example`,
    });
    if ((patch.status === 200 || patch.status === 201) && isObject(jsonOf(patch)))
      bodies.push(['PATCH', jsonOf(patch) as Json]);
    const { reply: del } = await stepApp(ctx.api, { kind: 'domain-delete', app, id: domain.id });
    if (del.status === 200 && isObject(jsonOf(del))) bodies.push(['DELETE', jsonOf(del) as Json]);
    const problems = bodies.flatMap(([what, body]) => formatProblems(body).map((p) => `${what}: ${p}`));
    expect(problems, 'formats of the domain fields').toEqual([]);
  }),
);

test(
  ...rule('APP-DOM-03', async (ctx) => {
    const app = newApp();
    const domain = await createDomain(ctx, app);
    const hostname = `${randomText('p')}.conformance.example`;
    const { reply } = await stepApp(ctx.api, { kind: 'domain-update', app, id: domain.id, hostname });
    if (reply.status !== 200 && reply.status !== 201)
      ctx.skip(
        `PATCH of a domain was answered ${reply.status}; the rule covers a change answered 200 or 201`,
      );
    const body = jsonOf(reply);
    expectFullDomain(body, reply);
    expectOn(
      reply,
      { id: body.id, hostname: String(body.hostname).toLowerCase(), created_at: body.created_at },
      'the patched domain',
    ).toEqual({ id: domain.body.id, hostname, created_at: domain.body.created_at });
  }),
);

test(
  ...rule('APP-DOM-04', async (ctx) => {
    const app = newApp();
    const domain = await createDomain(ctx, app);
    let reference: Json = domain.body;
    const { reply: read } = await stepApp(ctx.api, { kind: 'domain-get', app, id: domain.id });
    if (read.status === 200) {
      const body = jsonOf(read);
      if (isObject(body) && String(body.id) === domain.id) reference = body;
    }
    const { reply } = await stepApp(ctx.api, { kind: 'domain-delete', app, id: domain.id });
    expectOn(reply, reply.status).toBe(200);
    const body = jsonOf(reply);
    expectFullDomain(body, reply);
    const differing = Object.keys(reference).filter(
      (k) => JSON.stringify(body[k]) !== JSON.stringify(reference[k]),
    );
    expect(
      differing.map((k) => `${k}: ${JSON.stringify(body[k])} instead of ${JSON.stringify(reference[k])}`),
      'fields of the DELETE answer that differ from the domain as it was',
    ).toEqual([]);
  }),
);

test(
  ...rule('APP-DOM-05', async (ctx) => {
    const app = newApp();
    const domain = await createDomain(ctx, app);
    const { reply: before } = await stepApp(ctx.api, { kind: 'domain-get', app, id: domain.id });
    if (before.status !== 200)
      ctx.skip(`GET of a domain answered ${before.status}: removal cannot be observed`);
    await stepApp(ctx.api, { kind: 'domain-delete', app, id: domain.id });
    const { reply: after } = await stepApp(ctx.api, { kind: 'domain-get', app, id: domain.id });
    expectOn(after, after.status >= 200 && after.status <= 299, 'GET after DELETE').toBe(false);
  }),
);

test(
  ...rule('APP-JSON-01', async (ctx) => {
    const app = newApp();
    const domain = await createDomain(ctx, app);
    const replies: Reply[] = [domain.reply];
    const { reply: patch } = await stepApp(ctx.api, {
      kind: 'domain-update',
      app,
      id: domain.id,
      hostname: `${randomText('p')}.conformance.example`,
    });
    if (ok(patch)) replies.push(patch);
    replies.push((await stepApp(ctx.api, { kind: 'domain-delete', app, id: domain.id })).reply);
    const { reply: worker, id } = await stepApp(ctx.api, {
      kind: 'worker-create',
      app,
      command: 'conformance-check',
    });
    if (ok(worker)) {
      replies.push(worker);
      if (id !== undefined) {
        const del = await stepApp(ctx.api, { kind: 'worker-delete', app, id });
        replies.push(del.reply);
        if (!ok(del.reply)) ctx.cleanup(() => ctx.api.send('DELETE', appPath(app, 'workers', id)));
      }
    }
    const wrong: string[] = [];
    for (const reply of replies) {
      try {
        expectJsonUtf8(reply);
      } catch {
        wrong.push(
          `${reply.method} ${reply.path} → ${reply.status}: Content-Type ${reply.headers['content-type'] ?? '(none)'}`,
        );
      }
    }
    expect(wrong, 'JSON answers that are not application/json with charset=utf-8').toEqual([]);
  }),
);

test(
  ...rule('APP-JSON-02', async (ctx) => {
    const app = newApp();
    const domain = await createDomain(ctx, app);
    const media = mediaType(domain.reply);
    ctx.observe(
      `Content-Type: ${JSON.stringify(domain.reply.headers['content-type'])} (media type ${media?.type}, charset ${media?.params.charset ?? 'none'})`,
    );
  }),
);
