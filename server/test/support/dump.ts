import { Redis } from 'ioredis';

/**
 * Every key of a Redis, sorted, with its type, its TTL presence and its content byte for byte (hex):
 * two dumps are equal exactly when the data is the same.
 * - strings, lists, sorted sets: the DUMP payload;
 * - hashes and sets: every field and value (member), sorted. Their DUMP payload is not stable: for a
 *   large hash Redis serialises its hash table in bucket order, and a mere read can move an
 *   incremental rehash along and change that order without changing any data;
 * - streams: every entry (XRANGE) and XINFO STREAM FULL (groups, last-delivered ids, pending entries
 *   with their delivery counts, consumers and their pending lists), leaving out only the consumers'
 *   seen-time and active-time, which the worker removal runner refreshes every second by itself.
 */
export async function dumpRedis(url: string): Promise<string[]> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const keys = (await redis.keys('*')).sort();
    const out: string[] = [];
    for (const key of keys) {
      const type = await redis.type(key);
      const ttl = (await redis.pttl(key)) >= 0 ? 'ttl' : 'persistent';
      if (type === 'stream') {
        const entries = await redis.xrange(key, '-', '+');
        const info = await redis.call('XINFO', 'STREAM', key, 'FULL');
        out.push(
          `${key} ${type} ${ttl} ${JSON.stringify(entries)} ${JSON.stringify(withoutClockFields(info))}`,
        );
      } else if (type === 'hash') {
        const all = await redis.hgetallBuffer(key);
        const pairs = Object.entries(all)
          .map(([field, value]) => `${Buffer.from(field).toString('hex')}=${value.toString('hex')}`)
          .sort();
        out.push(`${key} ${type} ${ttl} ${pairs.join(',')}`);
      } else if (type === 'set') {
        const members = (await redis.smembersBuffer(key)).map((m) => m.toString('hex')).sort();
        out.push(`${key} ${type} ${ttl} ${members.join(',')}`);
      } else {
        const dump = await redis.dumpBuffer(key);
        out.push(`${key} ${type} ${ttl} ${dump?.toString('hex') ?? 'gone'}`);
      }
    }
    return out;
  } finally {
    redis.disconnect();
  }
}

/** XINFO replies are flat [name, value, …] lists: drops the values of seen-time and active-time. */
function withoutClockFields(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const out: unknown[] = [];
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    if ((item === 'seen-time' || item === 'active-time') && i + 1 < value.length) {
      i++;
      continue;
    }
    out.push(withoutClockFields(item));
  }
  return out;
}

/** Lines that differ between two dumps, for an assertion message. */
export function dumpDiff(before: string[], after: string[]): string {
  const a = new Set(before);
  const b = new Set(after);
  const removed = before.filter((line) => !b.has(line)).map((line) => `- ${line.slice(0, 200)}`);
  const added = after.filter((line) => !a.has(line)).map((line) => `+ ${line.slice(0, 200)}`);
  return [...removed, ...added].join('\n');
}

/** A plain client on a test Redis, for reading back what the service stored. */
export async function connectTestRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  return redis;
}
