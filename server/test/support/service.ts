import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { startTestRedis, type TestRedis } from '../../../testing/redis.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { type RunningService, startService } from '../../src/service.ts';
import { type TopologyRedis, topologyRedis } from './topologies.ts';

export interface TestService {
  url: string;
  redis: TestRedis;
  service: RunningService;
  /** Restarts the HTTP server (same Redis). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** The user collection of a test service: `${svc.url}/UserService/users`. */
export const usersUrl = (svc: TestService): string => `${svc.url}/UserService/users`;

/**
 * The service of the enclosing describe: started before its tests, closed after them. The object is
 * filled in by `before`: read it inside tests, not while the suite is being declared.
 */
export function suiteService(overrides: Partial<Config> = {}, { each = false } = {}): TestService {
  const suite = {} as TestService;
  let started: TestService | undefined;
  // `each`: a new service (and Redis) for every test of the describe, not one for all of them.
  (each ? beforeEach : before)(async () => {
    const running = await startTestService(overrides);
    started = running;
    Object.assign(suite, running, {
      async restart() {
        await running.restart();
        suite.service = running.service;
      },
    });
  });
  (each ? afterEach : after)(() => started?.close());
  return suite;
}

/**
 * A fresh Redis for one test: a single redis-server, or with TEST_TOPOLOGY=sentinel|cluster the suite's
 * topology, emptied (see topologies.ts).
 */
export async function startSuiteRedis(): Promise<TestRedis> {
  return (await topologyRedis()) ?? (await startTestRedis());
}

/** Builds the real service on its own real Redis (or the suite's topology), listening on a free port. */
export async function startTestService(
  overrides: Partial<Config> = {},
  redis?: TestRedis,
): Promise<TestService> {
  const ownRedis = redis ?? (await startSuiteRedis());
  const topologyEnv = (ownRedis as Partial<TopologyRedis>).serviceEnv;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'usersvc-test-data-'));
  const config: Config = {
    ...loadConfig(topologyEnv ?? {}),
    host: '127.0.0.1',
    port: 0,
    redisUrl: topologyEnv ? undefined : ownRedis.url,
    dataDir,
    logLevel: process.env.TEST_LOG_LEVEL || 'silent',
    ...overrides,
  };
  const logger = pino({ level: config.logLevel });
  let service: RunningService;
  try {
    service = await startService({ config, logger });
  } catch (err) {
    if (!redis) await ownRedis.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const handle: TestService = {
    url: service.url,
    redis: ownRedis,
    service,
    async restart() {
      await service.close();
      service = await startService({ config: { ...config, port: service.port }, logger });
      handle.service = service;
    },
    async close() {
      await service.close();
      if (!redis) await ownRedis.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}
