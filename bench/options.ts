/** Run settings and paths shared by the bench scripts (`make bench`, `bench-floor`, `bench-scale`, …), from the environment. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const positive = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where every bench writes its reports. */
export const OUT_DIR = path.join(ROOT, 'reports', 'bench');
/** The server as `make build` leaves it. */
export const BUILT_SERVER_SCRIPT = path.join(ROOT, 'dist', 'server', 'src', 'main.js');
export const BASELINE_SCRIPT = path.join(ROOT, 'bench', 'baseline.ts');

// Many short rounds rather than a few long ones: one round's ratio moves by about ±0.07 (measured with the
// baseline against itself) in runs of 2 s as of 3 s, so the median needs rounds, not seconds. autocannon
// counts requests per whole second and stops at the first whole second past the duration.
export const DURATION = positive('BENCH_DURATION', 2);
export const ROUNDS = positive('BENCH_ROUNDS', 12);
export const CONNECTIONS = positive('BENCH_CONNECTIONS', 32);
/** The contention scenarios (bench/contention.ts) use the 50 connections, split across the instances. */
export const CONNECTIONS_UNDER_CONTENTION = positive('BENCH_CONTENTION_CONNECTIONS', 50);
/** Seconds of load before the measured rounds of a scenario. */
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
/** The server's LOG_LEVEL in the benches (default info: as it ships). */
export const LOG_LEVEL = process.env.BENCH_LOG_LEVEL || 'info';
