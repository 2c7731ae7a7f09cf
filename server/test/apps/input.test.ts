import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';
import { skipOnTopology } from '../support/topologies.ts';
import { call, expectError, expectJson, JSON_TYPE, waitFor } from './helpers.ts';

describe('apps: request bodies, app ids and errors', () => {
  let svc: TestService;
  let url: string;
  let domainPath: string;
  let workerPath: string;
  before(async () => {
    svc = await startTestService();
    url = svc.url;
    // One existing domain and worker, so that PATCH reaches the body checks.
    const d = await call(url, 'POST', '/apps/input/domains', { hostname: 'input.example.com' });
    const w = await call(url, 'POST', '/apps/input/workers', { command: 'run' });
    domainPath = `/apps/input/domains/${d.body.id}`;
    workerPath = `/apps/input/workers/${w.body.id}`;
  });
  after(() => svc?.close());
  const writes = () => [
    ['POST', '/apps/input/domains'],
    ['PATCH', domainPath],
    ['POST', '/apps/input/workers'],
    ['PATCH', workerPath],
  ];

  it('a Content-Type other than application/json (UTF-8) is 415', async () => {
    for (const [method, path] of writes()) {
      for (const type of [
        undefined,
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json;charset=iso-8859-1',
        'application/jsonx',
      ]) {
        expectError(
          await call(url, method!, path!, { raw: '{"hostname":"a.com","command":"x","size":"small"}', type }),
          415,
          'unsupported_media_type',
        );
      }
    }
    // Parameters and case are fine.
    const ok = await call(url, 'POST', '/apps/input/workers', {
      raw: '{"command":"x"}',
      type: 'Application/JSON; charset="UTF-8"',
    });
    expectJson(ok, 201);
  });

  it('a body that is not a JSON object is 400', async () => {
    const bodies: Array<string | Uint8Array> = [
      '',
      '{',
      '{"hostname":',
      'nul',
      '[]',
      '"a.com"',
      '42',
      'null',
      '{"a":1}x',
      new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
    ];
    for (const [method, path] of writes()) {
      for (const raw of bodies) {
        expectError(await call(url, method!, path!, { raw, type: 'application/json' }), 400, 'bad_request');
      }
    }
  });

  it('a body over 64 KiB is 413', async () => {
    const raw = JSON.stringify({ hostname: 'a.com', pad: 'x'.repeat(70 * 1024) });
    expectError(
      await call(url, 'POST', '/apps/input/domains', { raw, type: 'application/json' }),
      413,
      'payload_too_large',
    );
  });

  it('unknown fields are refused with 422 naming the field, and nothing changes', async () => {
    const before = (await call(url, 'GET', '/apps/input/domains')).text;
    expectError(
      await call(url, 'POST', '/apps/input/domains', { hostname: 'b.example.com', hostnme: 'x' }),
      422,
      'invalid_params',
      'hostnme',
    );
    expectError(
      await call(url, 'PATCH', domainPath, { hostname: 'b.example.com', extra: null }),
      422,
      'invalid_params',
      'extra',
    );
    expectError(
      await call(url, 'POST', '/apps/input/workers', { command: 'x', sise: 'large' }),
      422,
      'invalid_params',
      'sise',
    );
    expectError(
      await call(url, 'PATCH', workerPath, { size: 'large', foo: 1 }),
      422,
      'invalid_params',
      'foo',
    );
    expect((await call(url, 'GET', '/apps/input/domains')).text).to.equal(before);
  });

  it('read-only fields (id, created_at, updated_at, state) are refused with 422 naming the field', async () => {
    expectError(
      await call(url, 'POST', '/apps/input/domains', { hostname: 'c.example.com', id: 'x' }),
      422,
      'invalid_params',
      'id',
    );
    expectError(
      await call(url, 'PATCH', domainPath, { hostname: 'c.example.com', created_at: 'x' }),
      422,
      'invalid_params',
      'created_at',
    );
    expectError(
      await call(url, 'POST', '/apps/input/workers', { command: 'x', state: 'up' }),
      422,
      'invalid_params',
      'state',
    );
    expectError(
      await call(url, 'PATCH', workerPath, { size: 'large', updated_at: 'x' }),
      422,
      'invalid_params',
      'updated_at',
    );
  });

  it('app_id is 1-100 characters of [A-Za-z0-9._-]; anything else is 404', async () => {
    for (const app of ['a', 'A.b_c-9', 'x'.repeat(100), '...', '-_-']) {
      expectJson(await call(url, 'GET', `/apps/${app}/domains`), 200);
      expectJson(await call(url, 'GET', `/apps/${app}/workers`), 200);
    }
    for (const app of ['x'.repeat(101), 'a%20b', 'a:b', 'a%3Ab', '%C3%A9', 'a%2Fb', 'a+b', 'a~b']) {
      expectError(await call(url, 'GET', `/apps/${app}/domains`), 404, 'not_found');
      expectError(await call(url, 'GET', `/apps/${app}/workers`), 404, 'not_found');
      expectError(await call(url, 'POST', `/apps/${app}/domains`, { hostname: 'a.com' }), 404, 'not_found');
      expectError(await call(url, 'POST', `/apps/${app}/workers`, { command: 'x' }), 404, 'not_found');
    }
  });

  it('a method a path does not support is 405 with Allow, as JSON', async () => {
    const cases: Array<[string, string]> = [
      ['PUT', '/apps/input/domains'],
      ['DELETE', '/apps/input/domains'],
      ['PATCH', '/apps/input/workers'],
      ['PUT', domainPath],
      ['POST', workerPath],
    ];
    for (const [method, path] of cases) {
      const answer = await call(url, method, path, {});
      expectError(answer, 405, 'method_not_allowed');
      expect(answer.headers.get('allow')).to.be.a('string').and.not.include(method);
    }
  });

  it('an unknown path under /apps is a JSON 404', async () => {
    for (const path of ['/apps', '/apps/x', '/apps/x/things', '/apps/x/domains/a/b']) {
      expectError(await call(url, 'GET', path), 404, 'not_found');
    }
  });
});

describe('apps: while Redis is down', () => {
  let svc: TestService;
  before(async function () {
    skipOnTopology(
      this,
      'it stops and starts one Redis (the failover tests cover a topology losing its master)',
    );
    svc = await startTestService({ workerStopGraceMs: 100 });
  });
  after(() => svc?.close());

  it('reads and writes answer 503 service_unavailable as JSON, and work again once Redis is back', async () => {
    const created = await call(svc.url, 'POST', '/apps/outage/workers', { command: 'x' });
    expectJson(created, 201);
    await svc.redis.stopTemporarily();
    try {
      for (const [method, path, body] of [
        ['GET', '/apps/outage/domains', undefined],
        ['GET', `/apps/outage/workers/${created.body.id}`, undefined],
        ['POST', '/apps/outage/domains', { hostname: 'down.example.com' }],
        ['DELETE', `/apps/outage/workers/${created.body.id}`, undefined],
      ] as const) {
        const answer = await call(svc.url, method, path, body);
        expectError(answer, 503, 'service_unavailable');
        expect(answer.headers.get('retry-after')).to.equal('1');
      }
    } finally {
      await svc.redis.start();
    }
    await waitFor(
      'Redis to be back',
      async () => (await call(svc.url, 'GET', '/apps/outage/workers')).status === 200,
      10_000,
    );
    const accepted = await call(svc.url, 'DELETE', `/apps/outage/workers/${created.body.id}`);
    expect([accepted.status, accepted.headers.get('content-type'), accepted.text]).to.deep.equal([
      202,
      JSON_TYPE,
      '{}',
    ]);
    await waitFor(
      'the removal after the outage',
      async () => (await call(svc.url, 'GET', `/apps/outage/workers/${created.body.id}`)).status === 404,
      5_000,
    );
  });
});
