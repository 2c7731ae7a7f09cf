/**
 * Value generators for every axis the explorer varies: texts (white space at either end and inside,
 * Unicode normalisation forms, characters outside the BMP, XML and form specials, empty, long) and ids
 * (a small pool per run, with neighbours N and N+1000, zero, negative, beyond 32 and 53 bits, each
 * written plain, with leading zeros or with a plus sign, in the form and in the path).
 */
import type { Rng } from './prng.ts';

/** The lengths of the long texts (code points): around common caps, short enough to send often. */
export const LONG_LENGTHS = [255, 256, 1024, 4096] as const;

export type TextClass =
  | 'plain'
  | 'spaces-ends'
  | 'inner-space'
  | 'nfd'
  | 'nfc'
  | 'compat'
  | 'non-bmp'
  | 'xml-specials'
  | 'form-specials'
  | 'empty'
  | `long-${(typeof LONG_LENGTHS)[number]}`;

const word = (rng: Rng) => `w${rng.int(36 ** 4).toString(36)}`;
const LONG_PATTERN = ['a', 'é', '山', '😀'];
const long = (length: number) => (rng: Rng) => {
  const start = rng.int(LONG_PATTERN.length);
  return Array.from({ length }, (_, i) => LONG_PATTERN[(i + start) % LONG_PATTERN.length]).join('');
};

/** One generator per class; each text carries a random word, so that two updates differ. */
export const TEXTS: Readonly<Record<TextClass, (rng: Rng) => string>> = {
  plain: word,
  'spaces-ends': (rng) => rng.pick([`  ${word(rng)}  `, `\t${word(rng)}`, `${word(rng)}\n`, ` ${word(rng)}`]),
  'inner-space': (rng) => `${word(rng)}${rng.pick(['  ', '\t', ' \u00a0 ', '\r\n'])}${word(rng)}`,
  nfd: (rng) => `e\u0301cole A\u030a ${word(rng)}`,
  nfc: (rng) => `\u00e9cole \u00c5 ${word(rng)}`,
  compat: (rng) => `\u212b \ufb01 \u2460 ${word(rng)}`,
  'non-bmp': (rng) => `\u{1f600}${word(rng)}\u{1d11e}\u{20000}`,
  'xml-specials': (rng) => `<a&b>"'${word(rng)}]]>&amp;`,
  'form-specials': (rng) => `a+b=c&d%20e;${word(rng)}+`,
  empty: () => '',
  'long-255': long(255),
  'long-256': long(256),
  'long-1024': long(1024),
  'long-4096': long(4096),
};
export const TEXT_CLASSES = Object.keys(TEXTS) as TextClass[];

/** A text: plain most of the time, so that the other classes meet users that are otherwise ordinary. */
export function text(rng: Rng): { text: string; cls: TextClass } {
  const cls: TextClass = rng.chance(0.55) ? 'plain' : rng.pick(TEXT_CLASSES);
  return { text: TEXTS[cls](rng), cls };
}

/** How an id is written: as the integer, with leading zeros, with a plus sign. */
export type Writing = 'plain' | 'zeros' | 'plus';
export const WRITINGS: readonly Writing[] = ['plain', 'zeros', 'plus'];

export function writeId(value: bigint, writing: Writing): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString();
  if (writing === 'zeros') return `${negative ? '-' : ''}00${digits}`;
  if (writing === 'plus' && !negative) return `+${digits}`;
  return value.toString();
}

export const writing = (rng: Rng): Writing => (rng.chance(0.7) ? 'plain' : rng.pick(['zeros', 'plus']));

const INT32_MAX = 2n ** 31n - 1n;
/** What kind of integer an id is: the model lets an implementation refuse all but `ordinary`. */
export function idClass(value: bigint): string {
  if (value === 0n) return 'zero';
  if (value < 0n) return value < -(2n ** 31n) ? 'negative-beyond-32-bit' : 'negative';
  if (value > 2n ** 63n - 1n) return 'beyond-64-bit';
  if (value > 2n ** 53n) return 'beyond-53-bit';
  if (value > INT32_MAX) return 'beyond-32-bit';
  return 'ordinary';
}

/**
 * The ids one sequence uses. `core`: the ids most operations hit (so that they meet), with a pair N and
 * N+1000; `edge`: zero, negative, and beyond 32, 53 and 64 bits, hit now and then. On a fresh instance
 * the core starts at the default user 1; on a shared target every id is derived from a random base,
 * so that the run touches only ids it owns.
 */
export interface Pool {
  core: readonly bigint[];
  edge: readonly bigint[];
  /** The app whose domains and workers a section B sequence on this pool uses (apps.ts). */
  app: string;
  /** The first id of the block a fill (operations.ts FILL) creates its users in, consecutively. */
  fill: bigint;
}

/**
 * How many users a fill creates: just past 100 or just past 1,000, common page sizes and caps (A-R1.1,
 * LIM-1: the list is not paged). The k-th fill of a run takes the big range when k is even, so that a
 * run's first fill already passes both.
 */
export const FILL_SMALL = [101, 150] as const;
export const FILL_BIG = [1001, 1100] as const;
export function fillCount(rng: Rng, k: number): number {
  const [low, high] = k % 2 === 0 ? FILL_BIG : FILL_SMALL;
  return low + rng.int(high - low + 1);
}

export function freshPool(): Pool {
  return {
    // Slot for slot as ownedPool: N, N+1, N+1000, N+7 (N the default user here).
    core: [1n, 2n, 1001n, 7n],
    edge: [0n, -3n, INT32_MAX, INT32_MAX + 1n, -(2n ** 31n), 2n ** 53n + 1n, 2n ** 64n + 7n],
    app: 'explore-fresh',
    // Past the core ids (1001 the highest): 2001 to 3100 at most.
    fill: 2001n,
  };
}

/**
 * A pool of ids owned by this sequence on a shared target: a random 9-digit base, apart from the ids of
 * the suite's rules (10 digits, support/http.ts randomId) and inside 32 bits. Bases are 10,000 apart,
 * more than the widest core offset (N+1000), so two pools never share an id; `taken` (one per run) keeps
 * a run from drawing a base twice: a pool a run reuses would start with users its model does not know.
 */
export function ownedPool(rng: Rng, taken: Set<bigint> = new Set()): Pool {
  let base: bigint;
  do base = OWNED_FLOOR + BigInt(rng.int(OWNED_BASES)) * OWNED_STRIDE;
  while (taken.has(base));
  taken.add(base);
  return {
    core: [base, base + 1n, base + 1000n, base + 7n],
    // As many as freshPool's, slot for slot of the same kind, so that a sequence replays on either.
    edge: [
      base + 3n,
      -base,
      base + 2n ** 31n,
      base + 2n ** 32n,
      -(base + 2n ** 31n),
      2n ** 53n + base,
      2n ** 64n + base,
    ],
    app: `explore-${base}`,
    // Inside the pool's 10,000 ids, past its core (base+1000 the highest).
    fill: base + 2000n,
  };
}

const OWNED_FLOOR = 100_000_000n;
const OWNED_STRIDE = 10_000n;
/** Bases from 100,000,000 up to 989,990,000: below the rules' ids, which start at 1,000,000,000. */
const OWNED_BASES = 89_000;

/** Every id of a pool, for removing what a sequence or round left on a shared target. */
export const poolIds = (pool: Pool): bigint[] => [...pool.core, ...pool.edge];

export const slotCount = (pool: Pool) => pool.core.length + pool.edge.length;
export const valueAt = (pool: Pool, slot: number): bigint =>
  (slot < pool.core.length ? pool.core[slot] : pool.edge[slot - pool.core.length]) as bigint;
/** A slot of the pool: a core id most of the time. */
export const slot = (rng: Rng, pool: Pool): number =>
  rng.chance(0.88) ? rng.int(pool.core.length) : pool.core.length + rng.int(pool.edge.length);
