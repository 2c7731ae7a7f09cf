import { expect } from 'chai';
import { xml2js } from 'xml-js';
import { XML_DECLARATION } from '../../src/http/xml.ts';
import { USER_KEYS } from '../../src/users/keys.ts';
import { connectTestRedis } from '../support/dump.ts';
import { call, FAILURE, SUCCESS, sendForm, userXml } from '../support/http.ts';
import { suiteService, usersUrl } from '../support/service.ts';

const XML = 'application/xml; charset=utf-8';

describe('users: the rules of SPEC.md section A', () => {
  const svc = suiteService({}, { each: true });
  const base = () => usersUrl(svc);

  describe('rule 1: GET list', () => {
    it('serves the default user on first use, wrapped in <users>', async () => {
      const res = await call(base());
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal(XML);
      expect(res.body).to.equal(`${XML_DECLARATION}<users>${userXml(1, 'Mahesh', 'Teacher')}</users>`);
    });

    it('lists every user in ascending numeric id order', async () => {
      for (const id of [10, -3, 2, 100])
        await sendForm(base(), 'PUT', { id, name: `n${id}`, profession: 'p' });
      const ids = [...(await call(base())).body.matchAll(/<id>(-?\d+)<\/id>/g)].map((m) => Number(m[1]));
      expect(ids).to.deep.equal([-3, 1, 2, 10, 100]);
    });

    it('answers an empty <users/> after every user is deleted, and does not bring the default back', async () => {
      expect((await call(`${base()}/1`, { method: 'DELETE' })).body).to.equal(SUCCESS);
      expect((await call(base())).body).to.equal(`${XML_DECLARATION}<users/>`);
      await svc.restart();
      expect((await call(base())).body).to.equal(`${XML_DECLARATION}<users/>`);
    });
  });

  describe('rule 2: GET by id', () => {
    it('returns the user with that id', async () => {
      const res = await call(`${base()}/1`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal(XML);
      expect(res.body).to.equal(XML_DECLARATION + userXml(1, 'Mahesh', 'Teacher'));
    });

    it('accepts leading zeros (007 is 7) and the trailing slash', async () => {
      await sendForm(base(), 'PUT', { id: 7, name: 'Bond', profession: 'Agent' });
      expect((await call(`${base()}/007`)).body).to.contain('<id>7</id>');
      expect((await call(`${base()}/7/`)).status).to.equal(200);
    });

    it('answers 404 with an <error> body for an unknown id (rule 9, DESIGN choice)', async () => {
      const res = await call(`${base()}/424242`);
      expect(res.status).to.equal(404);
      expect(res.body).to.equal(
        `${XML_DECLARATION}<error><code>not_found</code><message>no user has the id 424242</message></error>`,
      );
    });

    it('answers 400 for an id that is not a 32-bit integer', async () => {
      for (const bad of ['abc', '1.5', '2147483648', '-2147483649', '0x10', '1e3', '%20']) {
        const res = await call(`${base()}/${bad}`);
        expect(res.status, bad).to.equal(400);
        expect(res.body, bad).to.contain('<code>invalid_id</code>');
      }
    });
  });

  describe('rule 3: PUT creates', () => {
    it('appends a new user and answers success', async () => {
      const res = await sendForm(base(), 'PUT', { id: 2, name: 'naresh', profession: 'clerk' });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal(XML);
      expect(res.body).to.equal(SUCCESS);
      expect((await call(`${base()}/2`)).body).to.equal(XML_DECLARATION + userXml(2, 'naresh', 'clerk'));
    });

    it('changes nothing and answers failure (409) when the id exists', async () => {
      const res = await sendForm(base(), 'PUT', { id: 1, name: 'other', profession: 'other' });
      expect(res.status).to.equal(409);
      expect(res.body).to.equal(FAILURE);
      expect((await call(`${base()}/1`)).body).to.equal(XML_DECLARATION + userXml(1, 'Mahesh', 'Teacher'));
    });

    it('initialises the collection on a first write too: PUT of id 1 on a fresh service fails', async () => {
      const res = await sendForm(base(), 'PUT', { id: 1, name: 'x', profession: 'y' });
      expect(res.body).to.equal(FAILURE);
    });

    it('stores the canonical id: 007 and 7 are the same user', async () => {
      expect((await sendForm(base(), 'PUT', { id: '007', name: 'a', profession: 'b' })).body).to.equal(
        SUCCESS,
      );
      expect((await sendForm(base(), 'PUT', { id: '7', name: 'c', profession: 'd' })).body).to.equal(FAILURE);
      const redis = await connectTestRedis(svc.redis.url);
      expect(await redis.hkeys(USER_KEYS.users)).to.have.members(['1', '7']);
      redis.disconnect();
    });
  });

  describe('rule 4: POST updates', () => {
    it('replaces the user wholesale and answers success', async () => {
      const res = await sendForm(base(), 'POST', { id: 1, name: 'suresh', profession: 'clerk' });
      expect(res.status).to.equal(200);
      expect(res.body).to.equal(SUCCESS);
      expect((await call(`${base()}/1`)).body).to.equal(XML_DECLARATION + userXml(1, 'suresh', 'clerk'));
    });

    it('changes nothing and answers failure (404) when no user has the id', async () => {
      const res = await sendForm(base(), 'POST', { id: 55, name: 'ghost', profession: 'none' });
      expect(res.status).to.equal(404);
      expect(res.body).to.equal(FAILURE);
      expect((await call(`${base()}/55`)).status).to.equal(404);
      expect((await call(base())).body).to.equal(
        `${XML_DECLARATION}<users>${userXml(1, 'Mahesh', 'Teacher')}</users>`,
      );
    });
  });

  describe('rule 5: DELETE', () => {
    it('removes the user and answers success; a second DELETE answers failure (404)', async () => {
      await sendForm(base(), 'PUT', { id: 2, name: 'naresh', profession: 'clerk' });
      const first = await call(`${base()}/2`, { method: 'DELETE' });
      expect(first.status).to.equal(200);
      expect(first.body).to.equal(SUCCESS);
      expect((await call(`${base()}/2`)).status).to.equal(404);
      const second = await call(`${base()}/2`, { method: 'DELETE' });
      expect(second.status).to.equal(404);
      expect(second.body).to.equal(FAILURE);
      expect((await call(base())).body).to.equal(
        `${XML_DECLARATION}<users>${userXml(1, 'Mahesh', 'Teacher')}</users>`,
      );
    });
  });

  describe('rule 6: OPTIONS', () => {
    it('lists the operations and sends an Allow header', async () => {
      const res = await call(base(), { method: 'OPTIONS' });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal(XML);
      expect(res.body).to.equal('<operations>GET, PUT, POST, DELETE</operations>');
      expect(res.headers.get('allow')).to.equal('GET, HEAD, PUT, POST, OPTIONS');
    });

    it('works on a user path too, where DELETE is allowed', async () => {
      const res = await call(`${base()}/1`, { method: 'OPTIONS' });
      expect(res.body).to.equal('<operations>GET, PUT, POST, DELETE</operations>');
      expect(res.headers.get('allow')).to.equal('GET, HEAD, PUT, POST, DELETE, OPTIONS');
    });
  });

  describe('rule 7: HEAD', () => {
    for (const path of ['', '/1', '/999']) {
      it(`answers GET's status and headers without a body (${path || 'list'})`, async () => {
        const get = await call(base() + path);
        const head = await call(base() + path, { method: 'HEAD' });
        expect(head.status).to.equal(get.status);
        expect(head.body).to.equal('');
        for (const name of ['content-type', 'content-length', 'x-content-type-options']) {
          expect(head.headers.get(name), name).to.equal(get.headers.get(name));
        }
        expect(Number(head.headers.get('content-length'))).to.equal(Buffer.byteLength(get.body));
      });
    }
  });

  describe('rule 8: PUT and POST with the id in the path', () => {
    it('creates and updates with the id taken from the path; the form id may be left out', async () => {
      expect((await sendForm(`${base()}/30`, 'PUT', { name: 'a', profession: 'b' })).body).to.equal(SUCCESS);
      expect((await sendForm(`${base()}/30`, 'PUT', { name: 'a', profession: 'b' })).status).to.equal(409);
      expect((await sendForm(`${base()}/30`, 'POST', { id: 30, name: 'c', profession: 'd' })).body).to.equal(
        SUCCESS,
      );
      expect((await call(`${base()}/30`)).body).to.equal(XML_DECLARATION + userXml(30, 'c', 'd'));
      expect((await sendForm(`${base()}/31`, 'POST', { name: 'c', profession: 'd' })).status).to.equal(404);
    });

    it('rejects a form id that differs from the path with 400 and changes nothing', async () => {
      const res = await sendForm(`${base()}/30`, 'PUT', { id: 31, name: 'a', profession: 'b' });
      expect(res.status).to.equal(400);
      expect(res.body).to.contain('<code>id_mismatch</code>');
      expect((await call(`${base()}/30`)).status).to.equal(404);
      expect((await call(`${base()}/31`)).status).to.equal(404);
    });
  });

  describe('HTTP around the rules', () => {
    it('answers 405 with an Allow header for a method the path does not support', async () => {
      const res = await call(base(), { method: 'PATCH' });
      expect(res.status).to.equal(405);
      expect(res.headers.get('allow')).to.match(/GET/).and.match(/PUT/);
      expect(res.body).to.contain('<code>method_not_allowed</code>');
      expect((await call(base(), { method: 'DELETE' })).status).to.equal(405);
    });

    it('answers 404 with an XML <error> for an unknown path', async () => {
      const res = await call(`${svc.url}/UserService/nothing`);
      expect(res.status).to.equal(404);
      expect(res.headers.get('content-type')).to.equal(XML);
      expect(res.body).to.contain('<code>not_found</code>');
    });

    it('treats the trailing slash as the same resource', async () => {
      expect((await call(`${base()}/`)).body).to.equal((await call(base())).body);
      expect((await sendForm(`${base()}/`, 'PUT', { id: 3, name: 'x', profession: 'y' })).body).to.equal(
        SUCCESS,
      );
    });

    it('sends a Request-Id on every response, echoing a sane one from the request', async () => {
      const fresh = await call(base());
      expect(fresh.headers.get('request-id')).to.match(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      const echoed = await call(`${base()}/nope`, { headers: { 'Request-Id': 'trace-123' } });
      expect(echoed.headers.get('request-id')).to.equal('trace-123');
      const insane = await call(base(), { headers: { 'Request-Id': 'x'.repeat(500) } });
      expect(insane.headers.get('request-id')).to.have.length(36);
    });

    it('sends no framework banner and sets nosniff', async () => {
      const res = await call(base());
      expect(res.headers.get('server')).to.equal(null);
      expect(res.headers.get('x-powered-by')).to.equal(null);
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    });

    it('serves well-formed XML documents', async () => {
      for (const path of ['', '/1', '/2']) {
        const res = await call(base() + path);
        expect(() => xml2js(res.body), path).not.to.throw();
      }
    });
  });
});
