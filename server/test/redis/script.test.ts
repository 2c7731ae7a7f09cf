import { expect } from 'chai';
import { Redis } from 'ioredis';
import { startTestRedis, type TestRedis } from '../../../testing/redis.ts';
import { LuaScript } from '../../src/redis/script.ts';

describe('Lua scripts by SHA1', () => {
  let server: TestRedis;
  let redis: Redis;
  before(async () => {
    server = await startTestRedis();
    redis = new Redis(server.url, { lazyConnect: true });
    await redis.connect();
  });
  after(async () => {
    redis.disconnect();
    await server.stop();
  });

  const script = new LuaScript("return redis.call('INCRBY', KEYS[1], ARGV[1])");

  it('runs on a Redis that does not hold it (EVAL once), then by its SHA1 alone', async () => {
    await redis.script('FLUSH');
    expect(await script.run(redis, 1, 'counter', 2)).to.equal(2);
    expect(await redis.script('EXISTS', script.sha)).to.deep.equal([1]);
    expect(await script.run(redis, 1, 'counter', 3)).to.equal(5);
  });

  it('runs exactly once when Redis lost it (NOSCRIPT runs nothing)', async () => {
    await redis.set('counter', '0');
    await redis.script('FLUSH');
    expect(await script.run(redis, 1, 'counter', 1)).to.equal(1);
    expect(await redis.get('counter')).to.equal('1');
  });

  it('passes on the errors of the script itself', async () => {
    await redis.set('text', 'not a number');
    let failure: unknown;
    await script.run(redis, 1, 'text', 1).catch((err: unknown) => {
      failure = err;
    });
    expect(String(failure)).to.match(/not an integer/);
  });
});
