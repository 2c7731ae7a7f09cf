/**
 * Which Redis the tests of this process use, decided once and said in one line:
 * TEST_REDIS=auto (default) takes a container when a container runtime answers and the image can be had
 * (present or pullable), else a local redis-server; TEST_REDIS=container insists (one error with the
 * reason); TEST_REDIS=local never asks a container runtime. TEST_REDIS_IMAGE overrides the image.
 */
import type { ContainerRuntimeClient } from 'testcontainers';

export const DEFAULT_REDIS_IMAGE = 'redis:7-alpine';
/** The reaper image testcontainers 12 starts, unless RYUK_CONTAINER_IMAGE names another. */
const DEFAULT_REAPER_IMAGE = 'testcontainers/ryuk:0.14.0';

export type RedisPath =
  | { kind: 'container'; image: string; client: ContainerRuntimeClient; description: string }
  | { kind: 'local'; description: string };

/** TEST_REDIS=container and no container can be had: the tests cannot run as asked. */
export class ContainerRedisUnavailableError extends Error {}

let decided: Promise<RedisPath> | undefined;

export function chooseRedisPath(): Promise<RedisPath> {
  decided ??= decide().then(
    (path) => {
      console.log(`test Redis: ${path.description}`);
      return path;
    },
    (err: Error) => {
      console.log(`test Redis: none (${err.message})`);
      throw err;
    },
  );
  return decided;
}

function requestedMode(): 'auto' | 'container' | 'local' {
  const mode = process.env.TEST_REDIS || 'auto';
  if (mode === 'auto' || mode === 'container' || mode === 'local') return mode;
  throw new Error(`TEST_REDIS must be auto, container or local (it is "${mode}")`);
}

async function decide(): Promise<RedisPath> {
  const mode = requestedMode();
  if (mode === 'local') return { kind: 'local', description: 'local redis-server (TEST_REDIS=local)' };
  const image = process.env.TEST_REDIS_IMAGE || DEFAULT_REDIS_IMAGE;
  const found = await findContainerRuntime(image);
  if ('client' in found) {
    const reaper = await settleReaper(found.client);
    return { kind: 'container', image, client: found.client, description: `container (${image}; ${reaper})` };
  }
  if (mode === 'container')
    throw new ContainerRedisUnavailableError(`TEST_REDIS=container, but ${found.reason}`);
  return { kind: 'local', description: `local redis-server (no container: ${found.reason})` };
}

async function findContainerRuntime(
  image: string,
): Promise<{ client: ContainerRuntimeClient } | { reason: string }> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  let client: ContainerRuntimeClient;
  try {
    client = await getContainerRuntimeClient();
  } catch (err) {
    return { reason: `no container runtime answers (${firstLine(err)})` };
  }
  const unavailable = await imageUnavailable(client, image);
  if (unavailable)
    return {
      reason: `the image ${image} is not present and cannot be pulled (${unavailable}); scripts/build-local-images.sh builds a local one`,
    };
  return { client };
}

/** Why the image cannot be had, or undefined when it is present or was just pulled. */
async function imageUnavailable(client: ContainerRuntimeClient, image: string): Promise<string | undefined> {
  const { ImageName } = await import('testcontainers');
  const name = ImageName.fromString(image);
  try {
    if (await client.image.exists(name)) return undefined;
    await client.image.pull(name);
    return undefined;
  } catch (err) {
    return firstLine(err);
  }
}

/**
 * The reaper (Ryuk) removes a run's containers even when the process dies. Where its image cannot be had,
 * testcontainers would fail on it, so it is turned off and this process removes its containers itself.
 */
async function settleReaper(client: ContainerRuntimeClient): Promise<string> {
  if (process.env.TESTCONTAINERS_RYUK_DISABLED === 'true')
    return 'reaper off by TESTCONTAINERS_RYUK_DISABLED; this process removes its containers';
  const reaperImage = process.env.RYUK_CONTAINER_IMAGE || DEFAULT_REAPER_IMAGE;
  const unavailable = await imageUnavailable(client, reaperImage);
  if (!unavailable) return `reaper ${reaperImage}`;
  process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
  return `reaper off: ${reaperImage} cannot be had; this process removes its containers`;
}

function firstLine(err: unknown): string {
  return (String((err as Error)?.message ?? err).split('\n')[0] ?? '').trim();
}
