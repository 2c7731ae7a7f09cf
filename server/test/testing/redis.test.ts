import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { startTestRedis, type TestRedis } from '../../../testing/redis.ts';

/** INFO server of the Redis at `url`, as field -> value. */
async function serverInfo(url: string): Promise<Record<string, string>> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    return parseInfo(await redis.info('server'));
  } finally {
    redis.disconnect();
  }
}

function parseInfo(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split(/\r?\n/)
      .filter((line) => line.includes(':'))
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]),
  );
}

/**
 * The tests' Redis is what TEST_REDIS asked for. With TEST_REDIS=container these cannot pass on a local
 * redis-server: the Redis answering at the URL must be the one that redis-cli reaches inside the container.
 */
describe('the test Redis (TEST_REDIS)', () => {
  let redis: TestRedis | undefined;
  after(() => redis?.stop());

  it('runs where TEST_REDIS says, and the Redis at its URL is that one', async () => {
    redis = await startTestRedis();
    const mode = process.env.TEST_REDIS || 'auto';
    if (mode !== 'auto') expect(redis.kind).to.equal(mode);
    const info = await serverInfo(redis.url);
    if (redis.kind === 'local') {
      expect(Number(info.process_id)).to.equal(redis.pid);
      expect(Number(info.tcp_port)).to.equal(redis.port);
      return;
    }
    const { getContainerRuntimeClient } = await import('testcontainers');
    const client = await getContainerRuntimeClient();
    const container = client.container.getById(redis.containerId as string);
    const inspected = await client.container.inspect(container);
    expect(inspected.State.Running).to.equal(true);
    expect(inspected.HostConfig.PortBindings?.['6379/tcp']?.[0]?.HostPort).to.equal(String(redis.port));
    // Same server seen from both sides: the run id read through the URL equals the one read inside.
    const inside = await client.container.exec(container, ['redis-cli', 'INFO', 'server']);
    expect(inside.exitCode).to.equal(0);
    expect(parseInfo(inside.output).run_id).to.equal(info.run_id);
    expect(info.tcp_port).to.equal('6379'); // inside its container, whatever the host port
  });

  it('keeps its data and its URL across stopTemporarily() and start()', async () => {
    redis ??= await startTestRedis();
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    client.on('error', () => {}); // refused while Redis is down: expected, it reconnects
    try {
      await client.set('survives', 'a restart');
      await redis.stopTemporarily();
      await redis.start();
      await client.ping(); // ioredis reconnects to the same URL
      expect(await client.get('survives')).to.equal('a restart');
    } finally {
      client.disconnect();
    }
  });

  it('with a data folder of the caller: the append-only file is there, and stop() leaves it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'usersvc-test-redis-dir-'));
    try {
      const own = await startTestRedis({ dir });
      const client = new Redis(own.url, { maxRetriesPerRequest: 1 });
      try {
        await client.set('kept', 'in the folder');
      } finally {
        client.disconnect();
      }
      await own.stop();
      expect(fs.existsSync(dir)).to.equal(true);
      const again = await startTestRedis({ dir });
      const reader = new Redis(again.url, { maxRetriesPerRequest: 1 });
      try {
        expect(await reader.get('kept')).to.equal('in the folder');
      } finally {
        reader.disconnect();
        await again.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
