/**
 * A small seeded pseudo-random generator (sfc32 seeded through splitmix32): the same seed gives the
 * same operations, values and order, on any machine, so `--seed N` replays a run exactly.
 */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
  /** An independent generator derived from this one's seed and a label (one per client, per sequence). */
  fork(label: string | number): Rng;
  readonly seed: number;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** FNV-1a of a label, to derive a fork's seed. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export function rng(seed: number): Rng {
  const init = splitmix32(seed);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  const next32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) next32();
  const self: Rng = {
    seed: seed >>> 0,
    next: () => next32() / 4294967296,
    int: (n) => Math.floor(self.next() * n),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[self.int(items.length)] as T;
    },
    chance: (p) => self.next() < p,
    fork: (label) => rng((Math.imul(seed >>> 0, 31) ^ hash(String(label))) >>> 0),
  };
  return self;
}

/** A seed for a run that was given none. */
export const newSeed = (): number => Math.floor(Math.random() * 2 ** 31);
