/** The sample of single causes the self-test runs together (selftest/combinations.ts): properties. */
import { expect } from 'chai';
import fc from 'fast-check';
import { rng } from '../explore/prng.ts';
import { allCombinations, sampleCombinations, unionOf } from './combinations.ts';

const binomial = (n: number, k: number): number => (k === 0 ? 1 : (binomial(n - 1, k - 1) * n) / k);
const names = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 9 });

describe('combinations of single causes', () => {
  it('every combination once, each sorted, n choose k of them', () => {
    fc.assert(
      fc.property(names, fc.integer({ min: 1, max: 3 }), (pool, size) => {
        const all = allCombinations(pool, size);
        expect(all.length).to.equal(size > pool.length ? 0 : binomial(pool.length, size));
        expect(new Set(all.map((c) => c.join('\0'))).size).to.equal(all.length);
        for (const c of all) {
          expect(c).to.have.length(size);
          expect(c).to.deep.equal([...c].sort());
          expect(new Set(c).size).to.equal(size);
        }
      }),
    );
  });

  it('a sample: distinct combinations of the pool, as many as asked or all, the same for the same seed', () => {
    fc.assert(
      fc.property(names, fc.integer({ min: 1, max: 3 }), fc.nat(12), fc.nat(), (pool, size, count, seed) => {
        const sample = sampleCombinations(pool, size, count, rng(seed));
        const all = allCombinations(pool, size).map((c) => c.join('\0'));
        expect(sample.length).to.equal(Math.min(count, all.length));
        expect(new Set(sample.map((c) => c.join('\0'))).size).to.equal(sample.length);
        for (const c of sample) expect(all).to.include(c.join('\0'));
        expect(sampleCombinations(pool, size, count, rng(seed))).to.deep.equal(sample);
      }),
    );
  });

  it('the union of reports: every signature once, sorted', () => {
    expect(unionOf([['b | x | y', 'a | x | y'], ['a | x | y'], []])).to.deep.equal([
      'a | x | y',
      'b | x | y',
    ]);
  });
});
