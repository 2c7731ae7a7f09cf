import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * The young generation this process lets V8 grow to. Node 24 grows it under any sustained load to
 * 128 MiB (two semi-spaces of 64 MiB, sized from the machine's memory), and the pages stay resident:
 * eight readers took the process from 99 to 263 MiB (docs/benchmarks.md). 32 MiB keeps a scavenge
 * every few hundred requests (docs/benchmarks.md has the GC share and the RSS at both sizes).
 */
export const YOUNG_GENERATION_MAX_BYTES = 32 * 1024 * 1024;

/** V8's own default (`--semi-space-growth-factor`): each growth doubles the semi-spaces. */
const V8_GROWTH_FACTOR = 2;

const newSpaceBytes = (): number =>
  v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

/**
 * Holds the young generation at `maxBytes` without a command-line flag: V8 sizes the semi-spaces once
 * at start (`--max-semi-space-size` cannot be changed later), but reads the growth factor each time it
 * grows them, after a scavenge. So after every collection: at the bound, growth stops (factor 1);
 * below it (V8 shrank it while idle), it may grow again. An operator's own `--max-semi-space-size`
 * (command line or NODE_OPTIONS) is left alone. Returns the stop.
 */
export function holdYoungGeneration(maxBytes = YOUNG_GENERATION_MAX_BYTES): () => void {
  const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (/semi[-_]space/.test(flags)) return () => {};
  let holding = false;
  const observer = new PerformanceObserver(() => {
    const atBound = newSpaceBytes() >= maxBytes;
    if (atBound === holding) return;
    holding = atBound;
    v8.setFlagsFromString(`--semi-space-growth-factor=${atBound ? 1 : V8_GROWTH_FACTOR}`);
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}
