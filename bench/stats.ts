/** The value below which `share` of the values lie (linear interpolation between the nearest two). */
export function quantile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * share;
  const low = sorted[Math.floor(at)] as number;
  const high = sorted[Math.ceil(at)] as number;
  return low + (high - low) * (at - Math.floor(at));
}

export const median = (values: number[]): number => quantile(values, 0.5);

/** What every scenario's rounds report: throughput and latency per round. */
export interface RoundFigures {
  reqPerSec: number;
  p50: number;
  p99: number;
  max: number;
}

/** The medians of a target's rounds, and its ratio to the other target. */
export interface RoundsSummary extends RoundFigures {
  /** Median over rounds of this target's req/s divided by the other's in the same round (adjacent runs). */
  ratio: number;
  /** Lower and upper quartile of those per-round ratios: how far one round can be trusted. */
  ratioQuartiles: [number, number];
}

/**
 * The medians of one target's rounds, and the median (with quartiles) of its per-round ratio to the
 * other target's round run next to it.
 */
export function summariseRounds(runs: RoundFigures[], others: RoundFigures[]): RoundsSummary {
  const ratios = runs.map((r, i) => r.reqPerSec / (others[i]?.reqPerSec ?? Number.NaN));
  return {
    reqPerSec: median(runs.map((r) => r.reqPerSec)),
    ratio: median(ratios),
    ratioQuartiles: [quantile(ratios, 0.25), quantile(ratios, 0.75)],
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    max: Math.max(...runs.map((r) => r.max)),
  };
}
