/**
 * Many users stored fast, straight into Redis in the server's data model, for the tests and the
 * benchmarks that need large lists (shared by server/test and bench/, hence in the kit).
 */
import type { Redis } from 'ioredis';
import { USER_KEYS } from '../server/src/users/keys.ts';

/** The stored value of seeded user i: some carry characters that must be escaped in XML. */
export function seededUser(i: number): { name: string; profession: string } {
  return { name: i % 100 === 7 ? `Ann & <Bob> ${i}` : `user-${i}`, profession: `profession ${i % 37}` };
}

/**
 * Stores many users fast, straight into Redis in the server's data model (the hash, the id index, its
 * marker and a version token), through a pipeline, for the scenarios that need large lists.
 * `indexed: false` writes the hash alone, as data stored before the index existed.
 */
export async function storeUsers(
  redis: Redis,
  ids: Iterable<number>,
  options: { indexed?: boolean; user?: (i: number) => { name: string; profession: string } } = {},
): Promise<number> {
  const indexed = options.indexed ?? true;
  const user = options.user ?? seededUser;
  const CHUNK = 2000;
  let pipeline = redis.pipeline();
  let fields: string[] = [];
  let scored: string[] = [];
  let count = 0;
  const flush = () => {
    if (fields.length === 0) return;
    pipeline.hset(USER_KEYS.users, ...fields);
    if (indexed) pipeline.zadd(USER_KEYS.ids, ...scored);
    fields = [];
    scored = [];
  };
  for (const i of ids) {
    fields.push(String(i), JSON.stringify(user(i)));
    scored.push(String(i), String(i));
    count++;
    if (fields.length >= 2 * CHUNK) flush();
    // A bounded pipeline: millions of users are sent in parts, not held as one.
    if (count % 200_000 === 0) {
      flush();
      await pipeline.exec();
      pipeline = redis.pipeline();
    }
  }
  flush();
  pipeline.set(USER_KEYS.initialised, '1');
  if (indexed) {
    pipeline.set(USER_KEYS.idsComplete, '1');
    pipeline.set(USER_KEYS.version, `seeded:${Date.now()}:${Math.random()}`);
  }
  await pipeline.exec();
  return count;
}

/** 1..n */
export function* range(from: number, to: number): Generator<number> {
  for (let i = from; i <= to; i++) yield i;
}
