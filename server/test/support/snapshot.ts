import { Redis } from 'ioredis';

/**
 * Every key of a Redis with its type, TTL presence and DUMP payload (hex), sorted: two snapshots are
 * equal exactly when the data is byte for byte the same.
 */
export async function snapshotRedis(url: string): Promise<string[]> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const keys = (await redis.keys('*')).sort();
    const out: string[] = [];
    for (const key of keys) {
      const dump = await redis.dumpBuffer(key);
      const type = await redis.type(key);
      out.push(`${key} ${type} ${dump?.toString('hex') ?? 'gone'}`);
    }
    return out;
  } finally {
    redis.disconnect();
  }
}

/** A plain client on the test Redis, for reading back what the service stored. */
export async function connectTestRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  return redis;
}
