/** The data the bench scenarios and sanity probes start from, stored in the server's own keys and forms. */
import type { Redis } from 'ioredis';
import { APP_KEYS, REMOVAL_GROUP } from '../server/src/apps/keys.ts';
import { FORM_TYPE, formBody } from '../testing/form.ts';
import { range, storeUsers } from '../testing/seed-users.ts';

/** The app whose domains and workers the bench uses. */
export const BENCH_APP = 'bench-app';
export const FORM_HEADERS = { 'content-type': FORM_TYPE };
export const JSON_HEADERS = { 'content-type': 'application/json' };

/** The form body of a PUT or POST of one user. */
export const userForm = (id: number, name: string, profession: string) =>
  formBody({ id, name, profession }, { encode: 'component' });

/** A deterministic lower-case UUID v4 for seeded worker n. */
export const workerId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * Empties the Redis and stores users `from`..`to` in the server's data model (hash, id index, version
 * token, initialised marker; a few names carry characters that must be escaped in XML).
 */
export async function seedUsers(redis: Redis, count: number, from = 1): Promise<void> {
  await redis.flushall();
  await storeUsers(redis, range(from, from + count - 1));
}

/** Workers 1..n of the bench app, up, in the stored form of server/src/apps/keys.ts; and the removal group. */
export async function seedWorkers(redis: Redis, count: number): Promise<void> {
  const at = '2026-01-01T12:00:00.000Z';
  const stored = JSON.stringify({
    command: 'sleep 1000',
    size: 'standard',
    state: 'up',
    created_at: at,
    updated_at: at,
  });
  const pipeline = redis.pipeline();
  for (let start = 1; start <= count; start += 2000) {
    const args: string[] = [];
    for (let i = start; i < Math.min(start + 2000, count + 1); i++) args.push(workerId(i), stored);
    pipeline.hset(APP_KEYS.workers(BENCH_APP), ...args);
  }
  pipeline.xgroup('CREATE', APP_KEYS.removals, REMOVAL_GROUP, '0', 'MKSTREAM');
  await pipeline.exec();
}

/** After a FLUSHALL the removal runners' consumer group is gone: create it again (as they would). */
export async function seedRemovalGroup(redis: Redis): Promise<void> {
  await redis.xgroup('CREATE', APP_KEYS.removals, REMOVAL_GROUP, '0', 'MKSTREAM');
}
