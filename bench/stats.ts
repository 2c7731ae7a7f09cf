/** The value below which `share` of the values lie (linear interpolation between the nearest two). */
export function quantile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * share;
  const low = sorted[Math.floor(at)] as number;
  const high = sorted[Math.ceil(at)] as number;
  return low + (high - low) * (at - Math.floor(at));
}

export const median = (values: number[]): number => quantile(values, 0.5);
