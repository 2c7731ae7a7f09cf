import { once } from 'node:events';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { startTestRedis, type TestRedis } from '../../../testing/redis.ts';
import { createSharedClient, inOneWrite } from '../../src/redis/connect.ts';

/** Counts the writes the client's current socket hands to the system (one per `_write` or `_writev`). */
function countWrites(client: Redis): { count: number } {
  const counter = { count: 0 };
  const socket = client.stream as unknown as {
    _write: (...args: unknown[]) => void;
    _writev: (...args: unknown[]) => void;
  };
  for (const method of ['_write', '_writev'] as const) {
    const original = socket[method];
    socket[method] = function (this: unknown, ...args: unknown[]) {
      counter.count++;
      return original.apply(this, args);
    };
  }
  return counter;
}

describe('redis: a shared client sends the commands of one event-loop turn in one write', () => {
  let server: TestRedis;
  let client: Redis;
  before(async () => {
    server = await startTestRedis();
    client = createSharedClient({ url: server.url }, { lazyConnect: false });
    await once(client, 'ready');
  });
  after(async () => {
    client.disconnect();
    await server.stop();
  });

  it('one write for a turn of 100 commands, each answered in order', async () => {
    await client.del('counter');
    const writes = countWrites(client);
    const replies = await Promise.all(Array.from({ length: 100 }, () => client.incr('counter')));
    expect(replies).to.deep.equal(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(writes.count).to.equal(1);
  });

  it('a command of a later turn leaves in its own turn (nothing is held back)', async () => {
    const writes = countWrites(client);
    for (let i = 0; i < 5; i++) expect(await client.ping()).to.equal('PONG');
    expect(writes.count).to.equal(5);
  });

  it('batches on the new socket after a reconnection', async () => {
    client.stream.destroy();
    await once(client, 'ready');
    const writes = countWrites(client);
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => client.echo(`m${i}`)));
    expect(replies).to.deep.equal(Array.from({ length: 10 }, (_, i) => `m${i}`));
    expect(writes.count).to.equal(1);
  });
});

describe('redis: inOneWrite sends the commands it issues in one write, on any connection', () => {
  let server: TestRedis;
  let client: Redis;
  before(async () => {
    server = await startTestRedis();
    client = new Redis(server.url);
    await once(client, 'ready');
  });
  after(async () => {
    client.disconnect();
    await server.stop();
  });

  it('WATCH and HEXISTS: one write, two answers in order; without it, two writes', async () => {
    await client.hset('users', '7', 'x');
    const together = countWrites(client);
    const answers = await Promise.all(
      inOneWrite(client, () => [client.watch('guard'), client.hexists('users', '7')]),
    );
    expect(answers).to.deep.equal(['OK', 1]);
    expect(together.count).to.equal(1);
    await client.unwatch();
    const apart = countWrites(client);
    await Promise.all([client.watch('guard'), client.hexists('users', '8')]);
    expect(apart.count).to.equal(2);
    await client.unwatch();
  });

  it('before the connection is ready, the commands wait in the offline queue and are answered', async () => {
    const late = new Redis(server.url, { lazyConnect: true });
    try {
      const answers = await Promise.all(inOneWrite(late, () => [late.ping(), late.echo('after')]));
      expect(answers).to.deep.equal(['PONG', 'after']);
    } finally {
      late.disconnect();
    }
  });
});
