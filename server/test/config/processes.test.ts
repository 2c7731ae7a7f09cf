import os from 'node:os';
import { expect } from 'chai';
import { loadConfig } from '../../src/config.ts';

describe('config: PROCESSES (and its older name WORKERS)', () => {
  it('is one process unless set', () => {
    expect(loadConfig({}).processes).to.equal(1);
    expect(loadConfig({ PROCESSES: '' }).processes).to.equal(1);
    expect(loadConfig({ WORKERS: '' }).processes).to.equal(1);
  });

  it('takes a count, or auto for one process per core', () => {
    expect(loadConfig({ PROCESSES: '3' }).processes).to.equal(3);
    expect(loadConfig({ PROCESSES: 'auto' }).processes).to.equal(os.availableParallelism());
  });

  it('still reads WORKERS, the older name; the same value in both is fine, different ones are refused', () => {
    expect(loadConfig({ WORKERS: '3' }).processes).to.equal(3);
    expect(loadConfig({ WORKERS: 'auto' }).processes).to.equal(os.availableParallelism());
    expect(loadConfig({ PROCESSES: '2', WORKERS: '2' }).processes).to.equal(2);
    expect(() => loadConfig({ PROCESSES: '2', WORKERS: '3' })).to.throw(
      /PROCESSES \(2\) and its older name WORKERS \(3\) disagree/,
    );
  });

  it('refuses anything else, saying what is allowed', () => {
    for (const value of ['0', '-1', '1.5', 'two', 'AUTO', '257']) {
      expect(() => loadConfig({ PROCESSES: value }), value).to.throw(
        /PROCESSES must be an integer from 1 to 256.*"auto"/,
      );
      expect(() => loadConfig({ WORKERS: value }), value).to.throw(
        /WORKERS must be an integer from 1 to 256.*"auto"/,
      );
    }
  });
});
