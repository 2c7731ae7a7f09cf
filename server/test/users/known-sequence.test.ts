import { expect } from 'chai';
import { call } from '../support/http.ts';
import { suiteService } from '../support/service.ts';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe("users: the spec's known test sequence on a fresh service", () => {
  const svc = suiteService();

  it('list non-empty; GET 1; POST 1; PUT 2; DELETE 2', async () => {
    const base = `${svc.url}/UserService/users`;
    const list = await call(base);
    expect(list.status).to.equal(200);
    expect(list.body).to.contain('<user><id>1</id>');

    const one = await call(`${base}/1`);
    expect(one.body).to.contain('<id>1</id>');

    const post = await call(base, {
      method: 'POST',
      headers: FORM,
      body: 'id=1&name=suresh&profession=clerk',
    });
    expect(post.body).to.contain('<result>success</result>');
    const put = await call(base, {
      method: 'PUT',
      headers: FORM,
      body: 'id=2&name=naresh&profession=clerk',
    });
    expect(put.body).to.contain('<result>success</result>');
    const del = await call(`${base}/2`, { method: 'DELETE' });
    expect(del.body).to.contain('<result>success</result>');
  });
});
