import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import {
  FAILURE_STATUS_MODES,
  FAILURE_STATUSES,
  type FailureStatusMode,
} from '../../src/users/failure-status.ts';
import { renderUserList } from '../../src/users/render.ts';
import { call } from '../support/http.ts';
import { suiteService, usersUrl } from '../support/service.ts';

/**
 * The original tutorial service's own test client, as its users run it: a Java Jersey client binding the
 * list and a user with JAXB and comparing each write answer as a string (client.sh, src/). It runs the
 * known sequence and the three failure cases against the real server on a real Redis, once per failure
 * status mode. Where no JDK or Debian's jars are present, it is skipped with the reason.
 */
const run = promisify(execFile);
const CLIENT = path.join(import.meta.dirname, 'client.sh');

/** The client's lines, `Test case name: X, Result: Y`, in its order. */
function results(stdout: string): [string, string][] {
  return [...stdout.matchAll(/^Test case name: (\w+), Result: (.*)$/gm)].map((m): [string, string] => [
    m[1] as string,
    m[2] as string,
  ]);
}

const KNOWN_SEQUENCE = ['testGetAllUsers', 'testGetUser', 'testUpdateUser', 'testAddUser', 'testDeleteUser'];

/** How a Jersey client asking for a String reports a 4xx answer: it throws before it reads the body. */
const jerseyRefusal = (status: number) =>
  `fail (com.sun.jersey.api.client.UniformInterfaceException, status ${status})`;

/**
 * The results of the three failure cases, in the client's order, by mode: written out per mode (not derived
 * from the mode's statuses) so that `original` answering anything but 200 fails here.
 */
const FAILURE_CASES: Record<FailureStatusMode, [string, string][]> = {
  http: [
    ['testAddExistingUser', jerseyRefusal(FAILURE_STATUSES.http.create)],
    ['testUpdateUnknownUser', jerseyRefusal(FAILURE_STATUSES.http.update)],
    ['testDeleteUnknownUser', jerseyRefusal(FAILURE_STATUSES.http.delete)],
  ],
  original: [
    ['testAddExistingUser', 'pass'],
    ['testUpdateUnknownUser', 'pass'],
    ['testDeleteUnknownUser', 'pass'],
  ],
};

describe('original client: the tutorial service test client (Java, Jersey 1 + JAXB)', function () {
  this.timeout(120_000); // javac and two JVM starts on a busy 2-core machine
  let classes = '';

  before(async function () {
    try {
      await run(CLIENT, ['check']);
    } catch (err) {
      const reason = String((err as { stdout?: string }).stdout ?? err).trim();
      console.log(`  original client skipped: ${reason}`);
      this.skip();
    }
    classes = fs.mkdtempSync(path.join(os.tmpdir(), 'usersvc-original-client-'));
    await run(CLIENT, ['build', classes]);
  });

  after(() => {
    if (classes) fs.rmSync(classes, { recursive: true, force: true });
  });

  for (const mode of FAILURE_STATUS_MODES) {
    describe(`FAILURE_STATUS=${mode}`, () => {
      const svc = suiteService({ failureStatus: mode });

      it('runs the known sequence and the failure cases as the original client reads them', async () => {
        const { stdout, stderr } = await run(CLIENT, ['run', classes, svc.url], { timeout: 90_000 });
        expect(results(stdout), `client output:\n${stdout}${stderr}`).to.deep.equal([
          ...KNOWN_SEQUENCE.map((name): [string, string] => [name, 'pass']),
          ...FAILURE_CASES[mode],
        ]);
        expect(stderr, 'answers the client did not expect').to.equal('');
        // What the sequence leaves: user 1 as the update wrote it, nothing else (the failures changed nothing).
        const list = await call(usersUrl(svc));
        expect(list.body).to.equal(renderUserList([{ id: 1, name: 'suresh', profession: 'clerk' }]));
      });
    });
  }
});
