import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe("users: the spec's known test sequence on a fresh service", () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc?.close());

  it('list non-empty; GET 1; POST 1; PUT 2; DELETE 2', async () => {
    const base = `${svc.url}/UserService/users`;
    const list = await fetch(base);
    expect(list.status).to.equal(200);
    expect(await list.text()).to.contain('<user><id>1</id>');

    const one = await fetch(`${base}/1`);
    expect(await one.text()).to.contain('<id>1</id>');

    const post = await fetch(base, {
      method: 'POST',
      headers: FORM,
      body: 'id=1&name=suresh&profession=clerk',
    });
    expect(await post.text()).to.contain('<result>success</result>');
    const put = await fetch(base, {
      method: 'PUT',
      headers: FORM,
      body: 'id=2&name=naresh&profession=clerk',
    });
    expect(await put.text()).to.contain('<result>success</result>');
    const del = await fetch(`${base}/2`, { method: 'DELETE' });
    expect(await del.text()).to.contain('<result>success</result>');
  });
});
