import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { YOUNG_GENERATION_MAX_BYTES } from '../src/young-generation.ts';

const run = promisify(execFile);
const MODULE = path.resolve(import.meta.dirname, '../src/young-generation.ts');

/**
 * A process that holds the young generation (or not), then allocates for 2 s while keeping some of it
 * alive (what makes V8 grow the semi-spaces), yielding to the event loop as a server does; prints the
 * largest new space seen.
 */
const SCRIPT = `
import v8 from 'node:v8';
import { holdYoungGeneration } from ${JSON.stringify(MODULE)};
holdYoungGeneration();
const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
const kept = [];
let largest = 0;
const until = Date.now() + 2000;
while (Date.now() < until) {
  for (let i = 0; i < 20000; i++) {
    const item = { i, text: 'item ' + i, pair: [i, i] };
    if (i % 40 === 0) kept.push(item);
  }
  if (kept.length > 40000) kept.splice(0, 20000);
  largest = Math.max(largest, newSpace());
  await new Promise((resolve) => setImmediate(resolve));
}
console.log(largest);
`;

async function largestNewSpace(nodeFlags: string[]): Promise<number> {
  const { stdout } = await run(process.execPath, [
    ...nodeFlags,
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    SCRIPT,
  ]);
  return Number(stdout.trim());
}

/**
 * The hold reacts after a scavenge, and V8 may grow the new space by a few pages in the collection it
 * reacts to: it can pass the bound by that step (34 MiB seen in CI) before growth stops. What the hold
 * is for is the 128 MiB it stays far from, so the check allows that step.
 */
const HELD_BYTES = YOUNG_GENERATION_MAX_BYTES * 1.25;

describe('young generation', () => {
  it('stays within its bound under an allocation load that grows it', async () => {
    expect(await largestNewSpace([])).to.be.within(1, HELD_BYTES);
  });

  it("leaves an operator's own --max-semi-space-size alone", async () => {
    // Semi-spaces of 32 MiB: a young generation of 64 MiB, above the bound, which the load reaches.
    expect(await largestNewSpace(['--max-semi-space-size=32'])).to.be.above(HELD_BYTES);
  });
});
