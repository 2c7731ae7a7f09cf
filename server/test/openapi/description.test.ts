import { validate } from '@readme/openapi-parser';
import { expect } from 'chai';
import { XML_DECLARATION } from '../../src/http/xml.ts';
import { openApiPath } from '../../src/openapi/document.ts';
import { describeService } from '../../src/service.ts';
import { call } from '../support/http.ts';
import { DescriptionMismatch, openApiChecker } from '../support/openapi-check.ts';
import { suiteService } from '../support/service.ts';

describe('openapi: the description (/openapi.json)', () => {
  const svc = suiteService();

  it('is served at /openapi.json and validates as OpenAPI 3.1 (@readme/openapi-parser)', async () => {
    const res = await call(`${svc.url}/openapi.json`);
    expect(res.status).to.equal(200);
    const served = JSON.parse(res.body);
    expect(served).to.deep.equal(describeService());
    expect(served.openapi).to.equal('3.1.0');
    const result = await validate(structuredClone(served));
    expect(result.valid, result.valid ? '' : JSON.stringify(result.errors)).to.equal(true);
  });

  it('names exactly the routes the server registers (paths and methods)', () => {
    const registered = svc.service.routes.map((r) => `${r.method} ${openApiPath(r.path)}`).sort();
    const described: string[] = [];
    for (const [path, item] of Object.entries(describeService().paths as Record<string, object>)) {
      for (const method of Object.keys(item))
        if (method !== 'parameters') described.push(`${method.toUpperCase()} ${path}`);
    }
    expect(registered).to.deep.equal(described.sort());
  });

  describe('the answer checker fails on what the description does not say', () => {
    const checker = openApiChecker();
    const headers = (type: string, extra: Record<string, string> = {}) =>
      new Headers({ 'content-type': type, 'request-id': 'r1', ...extra });
    const xml = 'application/xml; charset=utf-8';
    const url = 'http://127.0.0.1:1/UserService/users/7';

    it('accepts a described answer', () => {
      const body = `${XML_DECLARATION}<user><id>7</id><name>a</name><profession>b</profession></user>`;
      expect(() => checker.check('GET', url, 200, headers(xml), body)).not.to.throw();
    });

    for (const [what, method, status, head, body] of [
      [
        'an element not described',
        'GET',
        200,
        headers(xml),
        `${XML_DECLARATION}<user><id>7</id><name>a</name><profession>b</profession><age>3</age></user>`,
      ],
      [
        'a missing element',
        'GET',
        200,
        headers(xml),
        `${XML_DECLARATION}<user><id>7</id><name>a</name></user>`,
      ],
      ['the wrong root element', 'GET', 200, headers(xml), `${XML_DECLARATION}<users/>`],
      [
        'a status not described',
        'GET',
        418,
        headers(xml),
        `${XML_DECLARATION}<error><code>x</code><message>y</message></error>`,
      ],
      ['a content type not described', 'GET', 200, headers('text/html'), '<p/>'],
      [
        'no Request-Id',
        'GET',
        200,
        new Headers({ 'content-type': xml }),
        `${XML_DECLARATION}<user><id>7</id><name>a</name><profession>b</profession></user>`,
      ],
      [
        'a 503 without Retry-After',
        'GET',
        503,
        headers(xml),
        `${XML_DECLARATION}<error><code>x</code><message>y</message></error>`,
      ],
      [
        'a write result with an XML declaration',
        'PUT',
        200,
        headers(xml),
        `${XML_DECLARATION}<result>success</result>`,
      ],
      [
        'a method not described answered other than 405',
        'PATCH',
        200,
        headers(xml),
        '<result>success</result>',
      ],
      [
        'a 405 whose Allow differs from the description',
        'PATCH',
        405,
        headers(xml, { allow: 'GET' }),
        `${XML_DECLARATION}<error><code>x</code><message>y</message></error>`,
      ],
    ] as const) {
      it(`rejects ${what}`, () => {
        expect(() => checker.check(method, url, status, head, body)).to.throw(DescriptionMismatch);
      });
    }

    it('rejects a JSON field not described, and an undescribed path answered other than 404', () => {
      const worker = {
        id: '3230f6ef-38f9-4a6d-9a2f-83974f80ff56',
        command: 'x',
        size: 'small',
        state: 'up',
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      };
      const json = 'application/json;charset=utf-8';
      const workerUrl = `http://127.0.0.1:1/apps/a/workers/${worker.id}`;
      expect(() =>
        checker.check('GET', workerUrl, 200, headers(json), JSON.stringify(worker)),
      ).not.to.throw();
      expect(() =>
        checker.check('GET', workerUrl, 200, headers(json), JSON.stringify({ ...worker, pid: 1 })),
      ).to.throw(DescriptionMismatch);
      expect(() => checker.check('GET', 'http://127.0.0.1:1/nowhere', 200, headers(json), '{}')).to.throw(
        DescriptionMismatch,
      );
    });
  });
});
