/** Run settings shared by `make bench` and `make bench-floor`, from the environment. */

const positive = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

// Many short rounds rather than a few long ones: one round's ratio moves by about ±0.07 (measured with the
// baseline against itself) in runs of 2 s as of 3 s, so the median needs rounds, not seconds. autocannon
// counts requests per whole second and stops at the first whole second past the duration.
export const DURATION = positive('BENCH_DURATION', 2);
export const ROUNDS = positive('BENCH_ROUNDS', 12);
export const CONNECTIONS = positive('BENCH_CONNECTIONS', 32);
/** The contention scenarios (bench/contention.ts) use the 50 connections, split across the instances. */
export const CONNECTIONS_UNDER_CONTENTION = positive('BENCH_CONTENTION_CONNECTIONS', 50);
