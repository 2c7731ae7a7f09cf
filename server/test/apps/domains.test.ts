import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';
import { call, expectError, expectJson, expectTimestamp, UUID_V4 } from './helpers.ts';

describe('apps: domains /apps/{app_id}/domains', () => {
  let svc: TestService;
  let url: string;
  before(async () => {
    svc = await startTestService();
    url = svc.url;
  });
  after(() => svc?.close());

  const create = async (app: string, hostname: string) => {
    const answer = await call(url, 'POST', `/apps/${app}/domains`, { hostname });
    expectJson(answer, 201);
    return answer.body as { id: string; hostname: string; created_at: string; updated_at: string };
  };

  it('POST creates a domain: 201, the full domain, Location, hostname stored lower-case', async () => {
    const before = Date.now();
    const answer = await call(url, 'POST', '/apps/shop/domains', { hostname: 'WWW.Example.COM' });
    const after = Date.now();
    expectJson(answer, 201);
    expect(Object.keys(answer.body)).to.deep.equal(['id', 'hostname', 'created_at', 'updated_at']);
    expect(answer.body.id).to.match(UUID_V4);
    expect(answer.body.hostname).to.equal('www.example.com');
    expectTimestamp(answer.body.created_at, before, after);
    expect(answer.body.updated_at).to.equal(answer.body.created_at);
    expect(answer.headers.get('location')).to.equal(`/apps/shop/domains/${answer.body.id}`);
    expect(answer.headers.get('content-length')).to.equal(String(Buffer.byteLength(answer.text)));

    const got = await call(url, 'GET', `/apps/shop/domains/${answer.body.id}`);
    expectJson(got, 200);
    expect(got.text).to.equal(answer.text);
  });

  it("GET lists the app's domains oldest first; an app never used has an empty list", async () => {
    const a = await create('listing', 'a.example.com');
    const b = await create('listing', 'b.example.com');
    const c = await create('listing', 'c.example.com');
    await create('listing-other', 'a.example.com');
    const list = await call(url, 'GET', '/apps/listing/domains');
    expectJson(list, 200);
    // Oldest first; domains created within the same millisecond are ordered by id.
    const expected = [a, b, c].sort(
      (x, y) => x.created_at.localeCompare(y.created_at) || x.id.localeCompare(y.id),
    );
    expect(list.body).to.deep.equal(expected);

    const empty = await call(url, 'GET', '/apps/never-used/domains');
    expectJson(empty, 200);
    expect(empty.text).to.equal('[]');
  });

  it('HEAD mirrors GET without a body', async () => {
    const d = await create('head', 'head.example.com');
    for (const path of ['/apps/head/domains', `/apps/head/domains/${d.id}`]) {
      const res = await call(url, 'HEAD', path);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/json;charset=utf-8');
      expect(res.text).to.equal('');
    }
  });

  it('PATCH changes the hostname: 200, the full domain, created_at kept, updated_at strictly later each time', async () => {
    const d = await create('patch', 'old.example.com');
    let previous = d;
    for (const hostname of [
      'New.Example.com',
      'newer.example.com',
      'newer.example.com',
      'last.example.com',
    ]) {
      const before = Date.now();
      const answer = await call(url, 'PATCH', `/apps/patch/domains/${d.id}`, { hostname });
      const after = Date.now();
      expectJson(answer, 200);
      expect(Object.keys(answer.body)).to.deep.equal(['id', 'hostname', 'created_at', 'updated_at']);
      expect(answer.body.id).to.equal(d.id);
      expect(answer.body.hostname).to.equal(hostname.toLowerCase());
      expect(answer.body.created_at).to.equal(d.created_at);
      const updated = expectTimestamp(answer.body.updated_at, Date.parse(previous.updated_at) + 1, after + 5);
      expect(updated).to.be.greaterThan(Date.parse(previous.updated_at));
      expect(updated).to.be.at.least(Math.min(before, Date.parse(previous.updated_at) + 1));
      previous = answer.body;
    }
    const got = await call(url, 'GET', `/apps/patch/domains/${d.id}`);
    expect(got.body).to.deep.equal(previous);
  });

  it('PATCH frees the old hostname and cannot take one another domain of the app uses (409)', async () => {
    const first = await create('rename', 'one.example.com');
    const second = await create('rename', 'two.example.com');
    const taken = await call(url, 'PATCH', `/apps/rename/domains/${second.id}`, {
      hostname: 'ONE.example.com',
    });
    expectError(taken, 409, 'conflict');
    expect((await call(url, 'GET', `/apps/rename/domains/${second.id}`)).body).to.deep.equal(second);

    const moved = await call(url, 'PATCH', `/apps/rename/domains/${first.id}`, {
      hostname: 'three.example.com',
    });
    expectJson(moved, 200);
    const reused = await create('rename', 'one.example.com');
    expect(reused.id).to.not.equal(first.id);
  });

  it('a hostname already used in the same app is 409, case-insensitively; other apps are independent', async () => {
    await create('dup', 'shop.example.com');
    const again = await call(url, 'POST', '/apps/dup/domains', { hostname: 'Shop.Example.Com' });
    expectError(again, 409, 'conflict');
    await create('dup-2', 'shop.example.com');
    const list = await call(url, 'GET', '/apps/dup/domains');
    expect(list.body).to.have.length(1);
  });

  it('of 20 concurrent POSTs of one hostname exactly one is created', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(url, 'POST', '/apps/race/domains', { hostname: 'race.example.com' }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).to.have.length(1);
    expect(statuses.filter((s) => s === 409)).to.have.length(19);
    expect((await call(url, 'GET', '/apps/race/domains')).body).to.have.length(1);
  });

  it('DELETE answers 200 with the domain as it was; then GET, PATCH and DELETE are 404 and the hostname is free', async () => {
    const d = await create('del', 'gone.example.com');
    const patched = await call(url, 'PATCH', `/apps/del/domains/${d.id}`, { hostname: 'going.example.com' });
    const removed = await call(url, 'DELETE', `/apps/del/domains/${d.id}`);
    expectJson(removed, 200);
    expect(removed.body).to.deep.equal(patched.body);
    expect(Object.keys(removed.body)).to.deep.equal(['id', 'hostname', 'created_at', 'updated_at']);

    expectError(await call(url, 'GET', `/apps/del/domains/${d.id}`), 404, 'not_found');
    expectError(
      await call(url, 'PATCH', `/apps/del/domains/${d.id}`, { hostname: 'x.example.com' }),
      404,
      'not_found',
    );
    expectError(await call(url, 'DELETE', `/apps/del/domains/${d.id}`), 404, 'not_found');
    expect((await call(url, 'GET', '/apps/del/domains')).text).to.equal('[]');
    await create('del', 'going.example.com');
  });

  it('a domain is found only in its own app; ids are matched case-insensitively; other ids are 404', async () => {
    const d = await create('own', 'own.example.com');
    expectError(await call(url, 'GET', `/apps/other/domains/${d.id}`), 404, 'not_found');
    expectError(await call(url, 'DELETE', `/apps/other/domains/${d.id}`), 404, 'not_found');
    expect((await call(url, 'GET', `/apps/own/domains/${d.id.toUpperCase()}`)).body).to.deep.equal(d);
    for (const id of ['nope', '123', `${d.id}0`, '00000000-0000-4000-8000-000000000000']) {
      expectError(await call(url, 'GET', `/apps/own/domains/${id}`), 404, 'not_found');
      expectError(
        await call(url, 'PATCH', `/apps/own/domains/${id}`, { hostname: 'a.example.com' }),
        404,
        'not_found',
      );
      expectError(await call(url, 'DELETE', `/apps/own/domains/${id}`), 404, 'not_found');
    }
  });

  describe('hostname validation (RFC 1123, at most 253 characters)', () => {
    const label63 = 'a'.repeat(63);
    const longest = [label63, label63, label63, 'a'.repeat(61)].join('.'); // 253 characters
    const valid = [
      'localhost',
      'a.b',
      'x1.example.com',
      'a-b--c.example',
      '1password.com',
      'xn--bcher-kva.example',
      `${label63}.com`,
      longest,
    ];
    const invalid: unknown[] = [
      '',
      ' ',
      ' a.com',
      'a.com ',
      '-a.com',
      'a-.com',
      'a..com',
      '.a.com',
      'a.com.',
      'a_b.com',
      'a b.com',
      'bücher.de',
      '1.2.3.4',
      '\u212a.com',
      'ex\u0131mple.com',
      'example.123',
      `${'a'.repeat(64)}.com`,
      `${longest}a`,
      `${longest}.a`,
      'a/b',
      'a:80',
      42,
      null,
      true,
      ['a.com'],
      { h: 'a.com' },
    ];

    it('accepts valid host names, stored lower-case', async () => {
      expect(longest).to.have.length(253);
      for (const hostname of valid) {
        const d = await create('valid', hostname.toUpperCase());
        expect(d.hostname).to.equal(hostname);
      }
    });

    it('refuses anything else with 422 naming the field, on POST and PATCH, and changes nothing', async () => {
      const d = await create('invalid', 'keep.example.com');
      for (const hostname of invalid) {
        expectError(
          await call(url, 'POST', '/apps/invalid/domains', { hostname }),
          422,
          'invalid_params',
          'hostname',
        );
        expectError(
          await call(url, 'PATCH', `/apps/invalid/domains/${d.id}`, { hostname }),
          422,
          'invalid_params',
          'hostname',
        );
      }
      expect((await call(url, 'GET', '/apps/invalid/domains')).body).to.deep.equal([d]);
    });

    it('a missing hostname is 422 naming it', async () => {
      const d = await create('missing', 'keep.example.com');
      expectError(await call(url, 'POST', '/apps/missing/domains', {}), 422, 'invalid_params', 'hostname');
      expectError(
        await call(url, 'PATCH', `/apps/missing/domains/${d.id}`, {}),
        422,
        'invalid_params',
        'hostname',
      );
    });
  });
});
