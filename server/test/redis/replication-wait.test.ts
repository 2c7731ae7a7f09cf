import { expect } from 'chai';
import { USER_KEYS } from '../../src/users/keys.ts';
import { connectTestRedis } from '../support/dump.ts';
import { call, sendForm } from '../support/http.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** WAIT on a Redis that has no replica: no change can be confirmed, so none may be answered success. */
describe('redis: a change not confirmed by enough replicas is answered 504, never success', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ redisWaitReplicas: 1, redisWaitTimeoutMs: 100 });
  });
  after(() => svc.close());

  it('users: PUT, POST and DELETE answer 504 outcome_unknown; the master has the change', async () => {
    const base = `${svc.url}/UserService/users`;
    const put = await sendForm(base, 'PUT', { id: 7, name: 'n', profession: 'p' });
    expect(put.status).to.equal(504);
    expect(put.body).to.contain('<code>outcome_unknown</code>');
    const post = await sendForm(base, 'POST', { id: 7, name: 'm', profession: 'q' });
    expect(post.status).to.equal(504);
    const redis = await connectTestRedis(svc.redis.url);
    try {
      expect(await redis.hget(USER_KEYS.users, '7')).to.equal('{"name":"m","profession":"q"}');
      const removed = await call(`${base}/7`, { method: 'DELETE' });
      expect(removed.status).to.equal(504);
      expect(await redis.hexists(USER_KEYS.users, '7')).to.equal(0);
    } finally {
      redis.disconnect();
    }
    // A failure result changes nothing and waits for nobody: it is answered as usual.
    expect((await call(`${base}/7`, { method: 'DELETE' })).status).to.equal(404);
  });

  it('apps: creating a domain or a worker answers 504 outcome_unknown as JSON', async () => {
    for (const [path, body] of [
      ['/apps/w/domains', { hostname: 'wait.example.com' }],
      ['/apps/w/workers', { command: 'run' }],
    ] as const) {
      const res = await call(`${svc.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).to.equal(504);
      expect((JSON.parse(res.body) as { id: string }).id).to.equal('outcome_unknown');
    }
  });
});
