// SPEC.md A, endpoint 7 and rule 7: HEAD /UserService/users.
import { expect } from '@playwright/test';
import { headBody } from '../model/index.ts';
import { rawRequest } from '../support/http.ts';
import { modelOf } from '../support/judged.ts';
import { rule, test } from '../support/rule.ts';
import { givenUser } from '../support/users.ts';

/** Headers whose values legitimately differ between two answers, or that belong to one connection. */
const VOLATILE = new Set([
  'date',
  'request-id',
  'x-request-id',
  'x-correlation-id',
  'etag',
  'last-modified',
  'age',
  'expires',
  'set-cookie',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'server-timing',
  'x-response-time',
]);
/** Framing and connection headers, compared by presence only as "the message framing". */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

test(
  ...rule('USR-HEAD-01', async (ctx) => {
    const head = await rawRequest(ctx.api.baseUrl, 'HEAD', '/UserService/users');
    expect(head.statusLine, 'status line of HEAD').toMatch(/^HTTP\/1\.[01] \d{3}/);
    if (head.extra.length)
      modelOf(ctx.api.log).add([headBody(`${head.extra.length} bytes after the headers`)], {
        method: 'HEAD',
        path: '/UserService/users',
        status: Number(head.statusLine.split(' ')[1]),
        headers: head.headers,
        body: head.extra,
        text: head.extra.toString('utf8'),
      });
    expect(
      head.extra.length,
      `bytes sent after the headers of a HEAD answer: ${JSON.stringify(head.extra.toString('utf8').slice(0, 120))}`,
    ).toBe(0);
  }),
);

test(
  ...rule('USR-HEAD-02', async (ctx) => {
    const get1 = await ctx.api.get('/UserService/users');
    const head = await ctx.api.send('HEAD', '/UserService/users');
    const get2 = await ctx.api.get('/UserService/users');
    expect(head.status, 'status of HEAD vs GET').toBe(get1.status);
    expect(head.headers['content-type'], 'Content-Type of HEAD vs GET').toBe(get1.headers['content-type']);
    const missing = Object.keys(get1.headers).filter((name) => !HOP.has(name) && !(name in head.headers));
    expect(missing, 'headers of GET that HEAD does not send').toEqual([]);
    // The list is shared with the other rules running meanwhile: one of them may create a user after the
    // first GET and delete it before the second, so that HEAD alone saw it (another length, another
    // ETag). Values are compared on triples whose two GETs answered the same bytes; one triple that
    // agrees is enough (a HEAD that answers other values answers them every time), and the rule fails
    // only when no attempt agreed.
    const problems: string[][] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const [before, during, after] =
        attempt === 1
          ? [get1, head, get2]
          : [
              await ctx.api.get('/UserService/users'),
              await ctx.api.send('HEAD', '/UserService/users'),
              await ctx.api.get('/UserService/users'),
            ];
      if (!before.body.equals(after.body)) continue; // the list changed in between
      const differing = Object.keys(before.headers).filter(
        (name) =>
          !VOLATILE.has(name) &&
          name in during.headers &&
          after.headers[name] === before.headers[name] &&
          during.headers[name] !== before.headers[name],
      );
      if (differing.length === 0) return;
      problems.push(differing.map((n) => `${n}: GET ${before.headers[n]} / HEAD ${during.headers[n]}`));
    }
    expect(
      problems[0] ?? [],
      'header values of HEAD that differ from GET (on every attempt where the list did not change in between)',
    ).toEqual([]);
  }),
);

test(
  ...rule('USR-HEAD-03', async (ctx) => {
    const user = await givenUser(ctx);
    const get = await ctx.api.get(`/UserService/users/${user.id}`);
    const head = await rawRequest(ctx.api.baseUrl, 'HEAD', `/UserService/users/${user.id}`);
    expect(head.statusLine.split(' ')[1], 'status of HEAD vs GET of a user').toBe(String(get.status));
    expect(
      head.extra.length,
      `bytes after the headers of HEAD: ${JSON.stringify(head.extra.toString('utf8').slice(0, 120))}`,
    ).toBe(0);
  }),
);
