/** The sample of single causes the self-test runs together (selftest/combinations.ts): properties. */
import { expect } from 'chai';
import fc from 'fast-check';
import { rng } from '../explore/prng.ts';
import { COULD_NOT_CHECK } from '../report/summary.ts';
import {
  allCombinations,
  type CombinationReport,
  judgeCombination,
  sampleCombinations,
  unionOf,
} from './combinations.ts';

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

  describe('a combination judged against the union of its single reports', () => {
    // As measured: put-success-not-stored with put-overwrites (no user can be created, so no overwrite).
    const notStored = { key: 'PUT (new id) | state-change | not stored', caughtBy: ['USR-PUT-01'] };
    const overwrites = {
      key: 'PUT | state-change | does what POST does',
      caughtBy: ['USR-PUT-03', 'USR-PUT-04'],
    };
    const masking = `Error: ${COULD_NOT_CHECK}PUT (new id) answered success; user 7 was not stored`;
    const report = (rules: CombinationReport['rules'], keys = [notStored.key]): CombinationReport => ({
      defects: keys.map((key, i) => ({ id: `D${i + 1}`, key })),
      rules,
    });

    it('exactly the union: sound, nothing masked', () => {
      const both = report([], [notStored.key, overwrites.key]);
      expect(judgeCombination([notStored, overwrites], both, COULD_NOT_CHECK)).to.deep.equal({
        sound: true,
        masked: [],
        reasons: [],
      });
    });

    it('a defect whose every rule could not check for a listed defect is masked', () => {
      const masked = report([
        { id: 'USR-PUT-03', status: 'failed', reason: masking, defect: 'D1' },
        { id: 'USR-PUT-04', status: 'skipped', reason: `${COULD_NOT_CHECK}x`, defect: 'D1' },
      ]);
      expect(judgeCombination([notStored, overwrites], masked, COULD_NOT_CHECK)).to.deep.equal({
        sound: true,
        masked: [overwrites.key],
        reasons: [],
      });
    });

    it('a missing defect is not masked when one of its rules passed, or names no listed defect', () => {
      for (const other of [
        { id: 'USR-PUT-04', status: 'passed' },
        { id: 'USR-PUT-04', status: 'failed', reason: masking, defect: 'D9' },
        { id: 'USR-PUT-04', status: 'failed', reason: 'Error: PUT answered success', defect: 'D1' },
        { id: 'USR-PUT-04', status: 'could not set up', reason: masking },
      ]) {
        const verdict = judgeCombination(
          [notStored, overwrites],
          report([{ id: 'USR-PUT-03', status: 'failed', reason: masking, defect: 'D1' }, other]),
          COULD_NOT_CHECK,
        );
        expect(verdict.sound, JSON.stringify(other)).to.equal(false);
        expect(verdict.reasons).to.have.length(1);
        expect(verdict.reasons[0]).to.match(
          /^missing: PUT \| state-change \| does what POST does \(USR-PUT-04/,
        );
      }
    });

    it('a defect another cause hides wherever the suite could look (MASKS) may be missing, and may be listed', () => {
      const hidden = { ...overwrites, hiddenBy: 'put-success-not-stored' };
      expect(judgeCombination([notStored, hidden], report([]), COULD_NOT_CHECK)).to.deep.equal({
        sound: true,
        masked: [`${overwrites.key} (hidden by put-success-not-stored)`],
        reasons: [],
      });
      const both = report([], [notStored.key, overwrites.key]);
      expect(judgeCombination([notStored, hidden], both, COULD_NOT_CHECK).sound).to.equal(true);
    });

    it('a missing defect none of whose rules is in the report is not masked', () => {
      const verdict = judgeCombination([notStored, overwrites], report([]), COULD_NOT_CHECK);
      expect(verdict.reasons).to.deep.equal([
        'missing: PUT | state-change | does what POST does (none of USR-PUT-03, USR-PUT-04 in the report)',
      ]);
    });

    it('a defect outside the union is never allowed, masked or not', () => {
      const extra = report(
        [{ id: 'USR-PUT-03', status: 'failed', reason: masking, defect: 'D1' }],
        [notStored.key, 'GET by id | state-change | user missing'],
      );
      const verdict = judgeCombination(
        [notStored, { ...overwrites, caughtBy: ['USR-PUT-03'] }],
        extra,
        COULD_NOT_CHECK,
      );
      expect(verdict).to.deep.equal({
        sound: false,
        masked: [overwrites.key],
        reasons: ['not expected: GET by id | state-change | user missing'],
      });
    });
  });
});
