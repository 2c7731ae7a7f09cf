import { expect } from 'chai';
import { loadConfig } from '../../src/config.ts';
import { targetFromConfig } from '../../src/redis/connect.ts';

describe('config: the Redis topology and WAIT settings', () => {
  it('a single Redis (REDIS_URL or embedded) waits for no replica by default', () => {
    expect(loadConfig({}).redisWaitReplicas).to.equal(0);
    const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6390' });
    expect(config.redisWaitReplicas).to.equal(0);
    expect(targetFromConfig(config)).to.deep.equal({ url: 'redis://127.0.0.1:6390' });
    expect(targetFromConfig(loadConfig({}))).to.equal(undefined);
  });

  it('Sentinel: the sentinels, the master name, passwords, and one replica waited for by default', () => {
    const config = loadConfig({
      REDIS_SENTINELS: '10.0.0.1:26379, [::1]:26380',
      REDIS_SENTINEL_NAME: 'users',
      REDIS_PASSWORD: 'p',
      REDIS_SENTINEL_PASSWORD: 's',
    });
    expect(config.redisWaitReplicas).to.equal(1);
    expect(config.redisWaitTimeoutMs).to.equal(1000);
    expect(targetFromConfig(config)).to.deep.equal({
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      name: 'users',
      password: 'p',
      sentinelPassword: 's',
    });
  });

  it('Cluster: the seed nodes, and WAIT as configured', () => {
    const config = loadConfig({
      REDIS_CLUSTER_NODES: 'a:7000,b:7001',
      REDIS_WAIT_REPLICAS: '2',
      REDIS_WAIT_TIMEOUT_MS: '250',
    });
    expect([config.redisWaitReplicas, config.redisWaitTimeoutMs]).to.deep.equal([2, 250]);
    expect(targetFromConfig(config)).to.deep.equal({
      cluster: [
        { host: 'a', port: 7000 },
        { host: 'b', port: 7001 },
      ],
    });
    expect(
      loadConfig({ REDIS_CLUSTER_NODES: 'a:7000', REDIS_WAIT_REPLICAS: '0' }).redisWaitReplicas,
    ).to.equal(0);
  });

  it('refuses two topologies at once, malformed addresses and bad WAIT values', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://x', REDIS_CLUSTER_NODES: 'a:1' })).to.throw(/only one of/);
    expect(() => loadConfig({ REDIS_SENTINELS: 'host-without-port' })).to.throw(/host:port/);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'a:1,b' })).to.throw(/host:port/);
    expect(() => loadConfig({ REDIS_WAIT_REPLICAS: '-1' })).to.throw(/REDIS_WAIT_REPLICAS/);
    expect(() => loadConfig({ REDIS_WAIT_TIMEOUT_MS: '0' })).to.throw(/REDIS_WAIT_TIMEOUT_MS/);
  });
});
