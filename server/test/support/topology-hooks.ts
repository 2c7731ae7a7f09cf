import { stopSuiteTopology } from './topologies.ts';

/** Mocha root hooks (`--require` this file): the suite's topology (TEST_TOPOLOGY) is stopped at the end. */
export const mochaHooks = {
  async afterAll(): Promise<void> {
    await stopSuiteTopology();
  },
};
