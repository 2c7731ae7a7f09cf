/**
 * The container path of the test Redis (testcontainers). Redis is published on a fixed host port chosen
 * free, so a container stopped and started again answers at the same URL; its data folder is a host
 * folder bind-mounted at /data, so the append-only file outlives the container too. Every container is
 * labelled with its owner (host and pid) and removed by stop(), by the exit of this process, or by the
 * next test process on this host once its owner is gone, whether or not the reaper (Ryuk) runs.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Dockerode from 'dockerode';
import type { ContainerRuntimeClient } from 'testcontainers';
import { freePort } from './free-port.ts';
import { pingRedis } from './redis-server.ts';
import type { TestRedis, TestRedisOptions } from './test-redis.ts';

const REDIS_PORT = 6379;
const OWNER_LABEL = 'usersvc.test-redis.owner';
/** On a container whose data folder is a temporary one of its owner: that folder. */
const TEMP_DIR_LABEL = 'usersvc.test-redis.temp-dir';
const owner = `${os.hostname()}:${process.pid}`;
/** Containers of this process not yet stopped, with the temporary data folder to remove with each. */
const running = new Map<string, string | undefined>();

export async function startContainerRedis(
  client: ContainerRuntimeClient,
  image: string,
  options: TestRedisOptions,
): Promise<TestRedis> {
  await removeOrphans(client);
  const { RedisContainer } = await import('@testcontainers/redis');
  const loopback = ['localhost', '127.0.0.1'].includes(client.info.containerRuntime.host);
  const host = loopback ? '127.0.0.1' : client.info.containerRuntime.host;

  /** testcontainers publishes on every interface; a test Redis is for this machine only. */
  class PublishedRedisContainer extends RedisContainer {
    publishOn(hostPort: number): this {
      this.withExposedPorts({ container: REDIS_PORT, host: hostPort });
      if (loopback)
        this.hostConfig.PortBindings = {
          [`${REDIS_PORT}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: String(hostPort) }],
        };
      return this;
    }
  }

  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'usersvc-test-redis-'));
  fs.mkdirSync(dir, { recursive: true });
  const command = ['redis-server', '--save', '', '--appendonly', options.appendOnly === false ? 'no' : 'yes'];
  command.push('--appendfsync', 'always');

  let port = 0;
  let id = '';
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    let container = new PublishedRedisContainer(image)
      .withCommand(command)
      .withBindMounts([{ source: dir, target: '/data' }])
      .withLabels({ [OWNER_LABEL]: owner, ...(options.dir ? {} : { [TEMP_DIR_LABEL]: dir }) })
      .publishOn(port);
    if (options.password) container = container.withPassword(options.password);
    try {
      id = (await container.start()).getId();
      running.set(id, options.dir ? undefined : dir);
      break;
    } catch (err) {
      await removeOwnStrays(client); // a container created but not started keeps its name and mounts
      // Somebody took the port between the probe and the start: take another.
      if (attempt >= 4 || !/port is already allocated|address already in use/i.test(String(err))) {
        if (!options.dir) fs.rmSync(dir, { recursive: true, force: true });
        throw err;
      }
    }
  }

  const container = client.container.getById(id);
  return {
    url: options.password ? `redis://:${options.password}@${host}:${port}` : `redis://${host}:${port}`,
    host,
    port,
    kind: 'container',
    pid: undefined,
    containerId: id,
    async stopTemporarily(signal = 'SIGTERM') {
      if (signal === 'SIGTERM') await ignoreNotModified(container.stop({ t: 10 }));
      else {
        await ignoreNotModified(container.kill({ signal }));
        await container.wait();
      }
    },
    async start() {
      await ignoreNotModified(container.start());
      await untilAnswering(host, port);
    },
    async stop() {
      if (running.delete(id)) await container.remove({ force: true, v: true }).catch(() => {});
      if (!options.dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Docker answers 304 to a stop of a stopped container or a start of a started one: nothing to do. */
async function ignoreNotModified(action: Promise<unknown>): Promise<void> {
  try {
    await action;
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode !== 304) throw err;
  }
}

/** Resolves once Redis answers PING (or asks for a password) on host:port; docker-proxy alone does not. */
async function untilAnswering(host: string, port: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await pingRedis(host, port))) {
    if (Date.now() > deadline)
      throw new Error(`Redis on ${host}:${port} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function listOwned(client: ContainerRuntimeClient): Promise<Dockerode.ContainerInfo[]> {
  return client.container.dockerode.listContainers({ all: true, filters: { label: [OWNER_LABEL] } });
}

/** Containers of this process that are not in use (a start that failed half-way). */
async function removeOwnStrays(client: ContainerRuntimeClient): Promise<void> {
  for (const info of await listOwned(client)) {
    if (info.Labels[OWNER_LABEL] === owner && !running.has(info.Id)) await removeContainer(client, info);
  }
}

/** Containers left by test processes of this host that have ended without removing them (killed, crashed). */
async function removeOrphans(client: ContainerRuntimeClient): Promise<void> {
  for (const info of await listOwned(client)) {
    const [hostname, pid] = (info.Labels[OWNER_LABEL] ?? '').split(':');
    if (hostname === os.hostname() && !processAlive(Number(pid))) await removeContainer(client, info);
  }
}

async function removeContainer(client: ContainerRuntimeClient, info: Dockerode.ContainerInfo): Promise<void> {
  await client.container
    .getById(info.Id)
    .remove({ force: true, v: true })
    .catch(() => {});
  removeTempDir(info.Labels[TEMP_DIR_LABEL]);
}

function removeTempDir(dir: string | undefined): void {
  // Only a folder this module made (a label is text anybody could have written).
  if (dir && path.basename(dir).startsWith('usersvc-test-redis-') && path.dirname(dir) === os.tmpdir())
    fs.rmSync(dir, { recursive: true, force: true });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** At exit (also after an uncaught error or a SIGINT/SIGTERM), containers not yet stopped are removed. */
function removeRunningNow(): void {
  if (running.size === 0) return;
  spawnSync('docker', ['rm', '--force', '--volumes', ...running.keys()], {
    stdio: 'ignore',
    timeout: 20_000,
  });
  for (const dir of running.values()) removeTempDir(dir);
  running.clear();
}
process.once('exit', removeRunningNow);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  // First in line: another listener (a runner's, a loader's) may end the process without an 'exit' event.
  process.prependOnceListener(signal, () => {
    removeRunningNow();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal); // the default: end
  });
}
