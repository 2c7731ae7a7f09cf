import { expect } from 'chai';
import restify from 'restify';
import { mountGroups, type ResourceGroup } from '../../src/http/groups.ts';
import { call, rawExchange } from '../support/http.ts';
import { suiteService } from '../support/service.ts';

const XML_TYPE = 'application/xml; charset=utf-8';
const JSON_TYPE = 'application/json;charset=utf-8';

const group = (prefix: string, representation: 'xml' | 'json'): ResourceGroup => ({
  prefix,
  representation,
  routes: () => {},
});

describe('http/groups: the error body follows the mounted resource groups', () => {
  it('takes the longest prefix the path is under, as whole segments, else the root groups', () => {
    const server = restify.createServer();
    const representations = mountGroups(server, [
      group('', 'xml'),
      group('/apps', 'json'),
      group('/apps/x', 'xml'),
    ]);
    expect(
      ['/apps', '/apps/', '/apps/y/z', '/appsx', '/apps/x', '/apps/x/y', '/'].map(representations.ofPath),
    ).to.deep.equal(['json', 'json', 'json', 'xml', 'xml', 'xml', 'xml']);
  });

  it('refuses groups that disagree on a prefix, or no group at the root', () => {
    expect(() =>
      mountGroups(restify.createServer(), [group('', 'xml'), group('/a', 'json'), group('/a', 'xml')]),
    ).to.throw(/different error representations/);
    expect(() => mountGroups(restify.createServer(), [group('/a', 'json')])).to.throw(/root/);
  });

  describe('over HTTP', () => {
    const svc = suiteService();

    it('an unknown path answers the body of the group it is under (segment boundaries respected)', async () => {
      for (const [path, type] of [
        ['/apps/', JSON_TYPE],
        ['/appsx', XML_TYPE],
        ['/UserService/users/1/x', XML_TYPE],
        ['/nothing', XML_TYPE],
      ] as const) {
        const answer = await call(`${svc.url}${path}`);
        expect(answer.status, path).to.equal(404);
        expect(answer.headers.get('content-type'), path).to.equal(type);
      }
    });

    it("OPTIONS' Allow lists exactly the methods registered on the path", async () => {
      for (const [path, route] of [
        ['/UserService/users', '/UserService/users'],
        ['/UserService/users/7', '/UserService/users/:userid'],
      ]) {
        const registered = svc.service.routes.filter((r) => r.path === route).map((r) => r.method);
        const answer = await call(`${svc.url}${path}`, { method: 'OPTIONS' });
        expect(answer.headers.get('allow')?.split(', '), path).to.deep.equal(registered);
      }
    });

    it("a request Node's parser refuses answers the body of the group its target is under", async () => {
      const port = Number(new URL(svc.url).port);
      const big = 'x'.repeat(20 * 1024);
      for (const [path, type, body] of [
        ['/apps/a/domains', JSON_TYPE, '{"id":"header_too_large"'],
        ['/UserService/users', XML_TYPE, '<code>header_too_large</code>'],
      ] as const) {
        const answer = await rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: a\r\nX-Big: ${big}\r\n\r\n`);
        expect(answer, path).to.match(/^HTTP\/1\.1 431 /);
        expect(answer, path).to.include(`Content-Type: ${type}\r\n`);
        expect(answer, path).to.include(body);
      }
    });
  });
});
