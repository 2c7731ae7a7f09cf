import { expect } from 'chai';
import { CONFLICT, type RetryPolicy, retryOnConflict } from '../../src/concurrency/conflict-retry.ts';
import { ServiceUnavailableError } from '../../src/errors.ts';

const QUICK: RetryPolicy = { budgetMs: 50, firstPauseMs: 1, maxPauseMs: 4 };

describe('concurrency/conflict-retry: retryOnConflict', () => {
  it('retries after each conflict and returns the first other outcome', async () => {
    let attempts = 0;
    let told = 0;
    const outcome = await retryOnConflict(
      async () => (++attempts < 5 ? CONFLICT : 'applied'),
      'thing',
      { budgetMs: 10_000, firstPauseMs: 1, maxPauseMs: 4 },
      { conflict: () => told++, retry: () => {}, gaveUp: () => {} },
    );
    expect(outcome).to.equal('applied');
    expect(attempts).to.equal(5);
    expect(told).to.equal(4);
  });

  it('an outcome that is a falsy value (false, undefined) is returned, not retried', async () => {
    let attempts = 0;
    const counted =
      <T>(value: T) =>
      async () => {
        attempts++;
        return value;
      };
    expect(await retryOnConflict(counted(false), 'thing', QUICK)).to.equal(false);
    expect(await retryOnConflict(counted(undefined), 'thing', QUICK)).to.equal(undefined);
    expect(attempts).to.equal(2);
  });

  it('gives up with a 503 once the budget is spent, after a conflict (nothing applied)', async () => {
    let attempts = 0;
    const alwaysConflict = async () => {
      attempts++;
      return CONFLICT;
    };
    const err = await retryOnConflict(alwaysConflict, 'user', QUICK).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).status).to.equal(503);
    expect((err as Error).message).to.equal('the user is being changed concurrently; try again');
    expect(attempts).to.be.greaterThan(1);
  });

  it('an attempt that throws is not retried: its error is the outcome (it may have been applied)', async () => {
    let attempts = 0;
    const err = await retryOnConflict(
      async () => {
        attempts++;
        throw new Error('Connection is closed.');
      },
      'user',
      QUICK,
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as Error).message).to.equal('Connection is closed.');
    expect(attempts).to.equal(1);
  });
});
