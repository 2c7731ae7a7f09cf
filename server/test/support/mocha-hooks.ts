/**
 * Root hooks of the server's tests: the test Redis path is chosen (and said) before any suite runs, so
 * TEST_REDIS=container without a container fails once, here, instead of in every suite's hooks.
 */
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000); // a first pull of the image can take a while
    // Imported here, not at the top: mocha loads this file apart from the specs, and the choice must be
    // the one module instance that the specs' startTestRedis() uses.
    const { chooseRedisPath } = await import('../../../testing/redis-path.ts');
    await chooseRedisPath();
  },
  async afterAll() {
    const { checkedCount } = await import('./openapi-check.ts');
    console.log(
      `  OpenAPI: ${checkedCount()} answers checked against the description (server/src/openapi/document.ts)`,
    );
  },
};
