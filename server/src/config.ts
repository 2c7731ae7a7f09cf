import os from 'node:os';
import path from 'node:path';
import { DEFAULTS } from './defaults.ts';
import { ALLOWED_HOST_ENTRY } from './http/host.ts';
import { FAILURE_STATUS_MODES, type FailureStatusMode, isFailureStatusMode } from './users/failure-status.ts';

/**
 * Every environment variable of the server, once: its name, its default (as docs/configuration.md shows
 * it), one line of documentation and its parser. `loadConfig` reads them all; `make docs` writes
 * docs/configuration.md's table from this one (scripts/configuration-doc.ts), and a server test fails
 * when the page is stale. The operating numbers that are not settings are in defaults.ts.
 */
interface Setting<T> {
  env: string;
  /** The default as the documentation says it (Markdown). */
  default: string;
  /** One line of documentation (Markdown). */
  doc: string;
  parse(env: NodeJS.ProcessEnv): T;
}

type Env = NodeJS.ProcessEnv;
const isSet = (raw: string | undefined): raw is string => raw !== undefined && raw !== '';
const code = (value: unknown) => `\`${value}\``;

/** A value, or the default when unset or empty. */
function text(env: string, fallback: string, doc: string): Setting<string> {
  return { env, default: code(fallback), doc, parse: (vars) => vars[env] || fallback };
}

/** A value, or undefined when unset or empty. */
function optional(env: string, doc: string): Setting<string | undefined> {
  return { env, default: 'unset', doc, parse: (vars) => vars[env] || undefined };
}

function integerFrom(vars: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = vars[name];
  if (!isSet(raw)) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function integer(env: string, fallback: number, [min, max]: [number, number], doc: string): Setting<number> {
  return { env, default: code(fallback), doc, parse: (vars) => integerFrom(vars, env, fallback, min, max) };
}

/** A 0/1 switch (`true`/`false` accepted too). */
function flag(env: string, fallback: boolean, doc: string): Setting<boolean> {
  const parse = (vars: Env) => {
    const raw = vars[env];
    if (!isSet(raw)) return fallback;
    if (raw === '1' || raw === 'true') return true;
    if (raw === '0' || raw === 'false') return false;
    throw new Error(`${env} must be 0 or 1, got ${JSON.stringify(raw)}`);
  };
  return { env, default: code(fallback ? 1 : 0), doc, parse };
}

/** `host:port,host:port` (IPv6 as `[::1]:26379`); undefined when unset. */
function addresses(env: string, doc: string): Setting<string[] | undefined> {
  const parse = (vars: Env) => {
    const raw = vars[env];
    if (raw === undefined || raw.trim() === '') return undefined;
    const list = raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
    for (const item of list) {
      if (!/^(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+):\d{1,5}$/.test(item)) {
        throw new Error(`${env} must be a comma-separated list of host:port, got ${JSON.stringify(item)}`);
      }
    }
    return list;
  };
  return { env, default: 'unset', doc, parse };
}

/**
 * `PROCESSES`: server processes sharing the port, a count or `auto` for one per core. `WORKERS` is its
 * older name, still read (deployments set it); both set to different values is refused.
 */
function processesFrom(vars: Env): number {
  const name = isSet(vars.PROCESSES) ? 'PROCESSES' : 'WORKERS';
  if (name === 'PROCESSES' && isSet(vars.WORKERS) && vars.WORKERS !== vars.PROCESSES)
    throw new Error(
      `PROCESSES (${vars.PROCESSES}) and its older name WORKERS (${vars.WORKERS}) disagree: set one`,
    );
  if (vars[name] === 'auto') return os.availableParallelism();
  try {
    return integerFrom(vars, name, 1, 1, 256);
  } catch (err) {
    throw new Error(`${(err as Error).message} (or "auto", one per core)`);
  }
}

const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * `ALLOWED_HOSTS`: `*` (any name), or names separated by commas. Unset: `localhost` when the server
 * listens on a loopback address only (a workstation, where a browser page could rebind its name to
 * 127.0.0.1), any name otherwise (a server reached by names only its operator knows).
 */
function allowedHostsFrom(vars: Env): readonly string[] | undefined {
  const raw = vars.ALLOWED_HOSTS?.trim();
  if (raw === '*') return undefined;
  if (raw === undefined || raw === '')
    return isLoopback(SETTINGS.host.parse(vars)) ? ['localhost'] : undefined;
  const names = raw
    .split(',')
    .map((item) => item.trim().toLowerCase().replace(/\.$/, ''))
    .filter((item) => item !== '');
  for (const name of names) {
    if (!ALLOWED_HOST_ENTRY.test(name)) {
      throw new Error(
        `ALLOWED_HOSTS must be "*" or a comma-separated list of host names (".example.com" for a domain and its subdomains), got ${JSON.stringify(name)}`,
      );
    }
  }
  return names;
}

function failureStatusFrom(vars: Env): FailureStatusMode {
  const raw = vars.FAILURE_STATUS;
  if (!isSet(raw)) return 'http';
  if (isFailureStatusMode(raw)) return raw;
  throw new Error(
    `FAILURE_STATUS must be one of ${FAILURE_STATUS_MODES.join(', ')}, got ${JSON.stringify(raw)}`,
  );
}

/** Sentinel and Cluster exist to fail over to a replica, so they have one: wait for it by default. */
const replicated = (vars: Env) =>
  isSet(vars.REDIS_SENTINELS?.trim()) || isSet(vars.REDIS_CLUSTER_NODES?.trim());

/** The settings, in the order docs/configuration.md lists them; the keys are Config's. */
export const SETTINGS = {
  port: integer('PORT', 8080, [0, 65535], 'TCP port (`0` picks a free one).'),
  host: text('HOST', '127.0.0.1', 'Interface to listen on (`0.0.0.0` in the container).'),
  redisUrl: optional(
    'REDIS_URL',
    'Use this Redis (`redis://[:password@]host:port[/db]`, or `rediss://` for TLS) and start nothing. Unset (and no Sentinel or Cluster set): the server starts and owns an embedded `redis-server`. At most one of `REDIS_URL`, `REDIS_SENTINELS`, `REDIS_CLUSTER_NODES`.',
  ),
  redisSentinels: addresses(
    'REDIS_SENTINELS',
    'Redis Sentinel: the sentinels, `host:port,host:port,…`. The server asks them for the master and follows a failover. See [Running it for real](running-for-real.md).',
  ),
  redisSentinelName: text(
    'REDIS_SENTINEL_NAME',
    'mymaster',
    "The master's name in the sentinels' configuration (`sentinel monitor <name> …`).",
  ),
  redisSentinelPassword: optional(
    'REDIS_SENTINEL_PASSWORD',
    'Password of the sentinels themselves, if they have one.',
  ),
  redisClusterNodes: addresses(
    'REDIS_CLUSTER_NODES',
    'Redis Cluster: some of its nodes, `host:port,…`; the rest is discovered from them.',
  ),
  redisPassword: optional(
    'REDIS_PASSWORD',
    'Password of the Redis servers behind Sentinel or in the Cluster (`REDIS_URL` carries its own).',
  ),
  redisWaitReplicas: {
    env: 'REDIS_WAIT_REPLICAS',
    default: '`1` with Sentinel or Cluster, else `0`',
    doc: 'A change is answered success only once this many replicas have it (`WAIT`); otherwise 504 `outcome_unknown`. `0`: as soon as the master has it. The default follows the topology setting, not what Redis reports at startup; behind `REDIS_URL` with replicas, set it yourself.',
    parse: (vars: Env) => integerFrom(vars, 'REDIS_WAIT_REPLICAS', replicated(vars) ? 1 : 0, 0, 100),
  },
  redisWaitTimeoutMs: integer(
    'REDIS_WAIT_TIMEOUT_MS',
    1000,
    [1, 60_000],
    'How long a change waits for its replicas before it is answered 504.',
  ),
  dataDir: {
    env: 'DATA_DIR',
    default: '`./data`',
    doc: 'The embedded Redis keeps its append-only file in `$DATA_DIR/redis`.',
    parse: (vars: Env) => path.resolve(vars.DATA_DIR || 'data'),
  },
  redisServerBin: text(
    'REDIS_SERVER_BIN',
    'redis-server',
    'The binary for the embedded Redis. If none is found the server exits saying how to install one or set `REDIS_URL`.',
  ),
  logLevel: text(
    'LOG_LEVEL',
    'info',
    `pino level (\`silent\`, \`error\`, \`warn\`, \`info\`, \`debug\`). At \`info\`, one JSON line per answered request (\`reqId\`, \`method\`, \`url\`, \`status\`, \`ms\`, \`msg: "request"\`). Lines go to standard output together, at most ${DEFAULTS.logFlushIntervalMs} ms after they are logged (and at exit), not one system call per line: a SIGKILL can lose the last ${DEFAULTS.logFlushIntervalMs} ms of lines.`,
  ),
  workerStopGraceMs: integer(
    'WORKER_STOP_GRACE_MS',
    1000,
    [0, 24 * 3600 * 1000],
    'How long a stopping worker stays visible before its removal job deletes it.',
  ),
  processes: {
    env: 'PROCESSES',
    default: '`1`',
    doc: 'Server processes sharing the port (node:cluster); `auto` = one per core. `WORKERS`, its older name, is still read (setting both to different values is refused): "worker" now means only the `/apps` resource. Above 1, a primary process owns the embedded Redis and the workers: see [Scaling out](configuration.md#scaling-out).',
    parse: processesFrom,
  },
  apiToken: optional(
    'API_TOKEN',
    'When set, every request except `OPTIONS`, `/healthz` and `/readyz` needs `Authorization: Bearer <token>` (401 otherwise). Off by default: the spec has no authentication.',
  ),
  allowedHosts: {
    env: 'ALLOWED_HOSTS',
    default: '`localhost` when `HOST` is a loopback address, else any',
    doc: "Host names a request's `Host` may name (403 `host_not_allowed` otherwise; IP addresses always pass): a guard against DNS rebinding. `*` for any, or `a.example.com,.example.org`. See [docs/security.md](security.md).",
    parse: allowedHostsFrom,
  },
  metrics: flag('METRICS', true, '`0`: no Prometheus metrics (no `/metrics`, nothing counted).'),
  metricsPublic: flag(
    'METRICS_PUBLIC',
    false,
    '`1`: `/metrics` needs no bearer token even when `API_TOKEN` is set.',
  ),
  failureStatus: {
    env: 'FAILURE_STATUS',
    default: '`http`',
    doc: 'Status of a `<result>failure</result>` answer. `http`: 409 for PUT of an existing id, 404 for POST or DELETE of an unknown id. `original`: 200, as the original service answered, for clients written against it (a JAX-RS client that asks for a `String` turns a 4xx into an exception before it reads the body). The body is the same in both. Why `http` is the default: [behaviour.md](behaviour.md#failure-status).',
    parse: failureStatusFrom,
  },
} satisfies Record<string, Setting<unknown>>;

/** Variables the server does not read but the documentation lists beside its own (Node reads them). */
export const DOCUMENTED_ONLY: ReadonlyArray<Omit<Setting<never>, 'parse'>> = [
  {
    env: 'NODE_OPTIONS',
    default: 'unset',
    doc: "Node's own. The server holds V8's young generation at 32 MiB itself (Node 24 grows it to 128 MiB under load; `server/src/young-generation.ts`); a `--max-semi-space-size` given here or on the command line takes precedence, e.g. `--max-semi-space-size=64` for the last percent of throughput at about 80 MiB more RSS under load ([benchmarks.md](benchmarks.md)).",
  },
];

/** The server's configuration: one field per setting, typed by its parser. */
export type Config = { [K in keyof typeof SETTINGS]: ReturnType<(typeof SETTINGS)[K]['parse']> };

/** Reads every setting from `env`; throws with the variable's name when a value is not valid. */
export function loadConfig(env: Env = process.env): Config {
  const entries = Object.entries(SETTINGS).map(([key, setting]) => [key, setting.parse(env)]);
  const config = Object.fromEntries(entries) as Config;
  const chosen = [
    config.redisUrl && 'REDIS_URL',
    config.redisSentinels && 'REDIS_SENTINELS',
    config.redisClusterNodes && 'REDIS_CLUSTER_NODES',
  ].filter(Boolean);
  if (chosen.length > 1) {
    throw new Error(
      `set only one of REDIS_URL, REDIS_SENTINELS, REDIS_CLUSTER_NODES (got ${chosen.join(', ')})`,
    );
  }
  return config;
}
