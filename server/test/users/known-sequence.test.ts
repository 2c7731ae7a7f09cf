import { expect } from 'chai';
import { call, FAILURE, SUCCESS, sendForm } from '../support/http.ts';
import { suiteService, usersUrl } from '../support/service.ts';

// The original service's clients compare each write answer as a string: the exact bytes matter.
describe("users: the spec's known test sequence on a fresh service", () => {
  const svc = suiteService();

  it('list non-empty; GET 1; POST 1; PUT 2; DELETE 2: each write answers exactly <result>success</result>', async () => {
    const base = usersUrl(svc);
    const list = await call(base);
    expect(list.status).to.equal(200);
    expect(list.body).to.contain('<user><id>1</id>');

    const one = await call(`${base}/1`);
    expect(one.body).to.contain('<id>1</id>');

    const post = await sendForm(base, 'POST', 'id=1&name=suresh&profession=clerk');
    expect([post.status, post.body]).to.deep.equal([200, SUCCESS]);
    const put = await sendForm(base, 'PUT', 'id=2&name=naresh&profession=clerk');
    expect([put.status, put.body]).to.deep.equal([200, SUCCESS]);
    const del = await call(`${base}/2`, { method: 'DELETE' });
    expect([del.status, del.body]).to.deep.equal([200, SUCCESS]);
    const options = await call(base, { method: 'OPTIONS' });
    expect(options.body).to.equal('<operations>GET, PUT, POST, DELETE</operations>');
    expect(options.headers.get('content-type')).to.equal('application/xml; charset=utf-8');
  });
});

/** The failure cases of the original's clients, in both FAILURE_STATUS modes: the body never changes. */
for (const [mode, statuses] of [
  ['http', { create: 409, update: 404, delete: 404 }],
  ['original', { create: 200, update: 200, delete: 200 }],
] as const) {
  describe(`users: failure results with FAILURE_STATUS=${mode}`, () => {
    const svc = suiteService({ failureStatus: mode });

    it(`PUT of an existing id answers ${statuses.create}, POST and DELETE of an unknown one ${statuses.update} and ${statuses.delete}, each with exactly <result>failure</result>`, async () => {
      const base = usersUrl(svc);
      const put = await sendForm(base, 'PUT', 'id=1&name=again&profession=again');
      expect([put.status, put.body]).to.deep.equal([statuses.create, FAILURE]);
      const post = await sendForm(base, 'POST', 'id=4242&name=nobody&profession=none');
      expect([post.status, post.body]).to.deep.equal([statuses.update, FAILURE]);
      const del = await call(`${base}/4242`, { method: 'DELETE' });
      expect([del.status, del.body]).to.deep.equal([statuses.delete, FAILURE]);
      // Nothing changed: user 1 as the default, no user 4242.
      expect((await call(`${base}/1`)).body).to.contain('<name>Mahesh</name>');
      expect((await call(`${base}/4242`)).status).to.equal(404);
      // Errors other than the failure result keep their status in both modes.
      expect((await sendForm(base, 'PUT', 'id=x&name=a&profession=b')).status).to.equal(400);
    });
  });
}
