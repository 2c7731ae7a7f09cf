import os from 'node:os';
import { expect } from 'chai';
import { loadConfig } from '../../src/config.ts';

describe('config: WORKERS', () => {
  it('is one process unless set', () => {
    expect(loadConfig({}).workers).to.equal(1);
    expect(loadConfig({ WORKERS: '' }).workers).to.equal(1);
  });

  it('takes a count, or auto for one process per core', () => {
    expect(loadConfig({ WORKERS: '3' }).workers).to.equal(3);
    expect(loadConfig({ WORKERS: 'auto' }).workers).to.equal(os.availableParallelism());
  });

  it('refuses anything else, saying what is allowed', () => {
    for (const value of ['0', '-1', '1.5', 'two', 'AUTO', '257']) {
      expect(() => loadConfig({ WORKERS: value }), value).to.throw(
        /WORKERS must be an integer from 1 to 256.*"auto"/,
      );
    }
  });
});
