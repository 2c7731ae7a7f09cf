import { expect } from 'chai';
import { call, SUCCESS, sendForm } from '../support/http.ts';
import { suiteService } from '../support/service.ts';

describe('redis: an external Redis (REDIS_URL) that goes away and comes back', () => {
  const svc = suiteService();

  it('answers 503 with an <error> body within 2 s while Redis is down, then serves again without a restart', async () => {
    const base = `${svc.url}/UserService/users`;
    expect((await sendForm(base, 'PUT', { id: 2, name: 'before', profession: 'outage' })).body).to.equal(
      SUCCESS,
    );
    await svc.redis.stopTemporarily();

    for (const attempt of [
      () => call(base),
      () => call(`${base}/2`),
      () => sendForm(base, 'PUT', { id: 3, name: 'x', profession: 'y' }),
      () => sendForm(base, 'POST', { id: 2, name: 'x', profession: 'y' }),
      () => call(`${base}/2`, { method: 'DELETE' }),
    ]) {
      const started = Date.now();
      const res = await attempt();
      expect(Date.now() - started).to.be.below(2000);
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('1');
      expect(res.body).to.match(
        /<error><code>service_unavailable<\/code><message>[^<]+<\/message><\/error>$/,
      );
    }
    const ready = await call(`${svc.url}/readyz`);
    expect(ready.status).to.equal(503);

    await svc.redis.start();
    const deadline = Date.now() + 10_000;
    while ((await call(`${svc.url}/readyz`)).status !== 200) {
      if (Date.now() > deadline) throw new Error('the service did not recover');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await call(`${base}/2`)).body).to.contain('<name>before</name>');
    expect((await call(`${base}/3`)).status).to.equal(404); // the 503 PUT did not happen later
    expect((await sendForm(base, 'PUT', { id: 3, name: 'after', profession: 'outage' })).body).to.equal(
      SUCCESS,
    );
  });
});
