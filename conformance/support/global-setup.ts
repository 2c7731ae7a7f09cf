/**
 * Resolves the target once for the whole run (see target.ts) and hands it to the workers through the
 * environment. Returns the teardown that stops what it started.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { markExited, unresponsive } from './health.ts';
import { setting } from './options.mjs';
import { type Instance, REFUSED_GIVE_UP_MS, startCommandInstance, waitUntilAnswering } from './target.ts';

/** An error about the target, not the suite: Playwright shows its message, without a stack to read. */
function runError(message: string): Error {
  const error = new Error(message);
  error.stack = `Error: ${message}`;
  return error;
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const url = process.env.CONFORMANCE_BASE_URL;
  const command = process.env.CONFORMANCE_START_COMMAND;
  let instance: Instance | undefined;
  delete process.env.CONFORMANCE_TARGET_EXITED;
  delete process.env.CONFORMANCE_TARGET_STALLED;
  // What the workers learn about the implementation as a whole (support/health.ts).
  const healthDir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-health-'));
  process.env.CONFORMANCE_HEALTH_DIR = healthDir;
  let description: string;
  const removeHealth = () => fs.rmSync(healthDir, { recursive: true, force: true });
  if (url) {
    try {
      await waitUntilAnswering(url, Number(setting('CONFORMANCE_START_TIMEOUT_MS')), REFUSED_GIVE_UP_MS);
    } catch (err) {
      removeHealth();
      throw runError(`the target never answered: ${(err as Error).message}`);
    }
    description = command ? `${url} (fresh instances: ${command})` : url;
  } else if (command) {
    // The shared instance is stopped after the last rule: nobody to report a forced stop to but the log.
    // Its exit during the run is a run error (the reporter reads CONFORMANCE_TARGET_EXITED in this process).
    instance = await startCommandInstance(
      command,
      (text) => console.error(`conformance: ${text}`),
      (text) => {
        process.env.CONFORMANCE_TARGET_EXITED = text;
        markExited(text);
      },
    ).catch((err) => {
      removeHealth();
      throw err;
    });
    description = `command: ${command}`;
  } else {
    throw new Error('no target: give a base URL (--base-url) or a start command (--start)');
  }
  process.env.CONFORMANCE_RESOLVED_URL = url ?? instance?.url;
  process.env.CONFORMANCE_RESOLVED_MODE = url ? 'url' : 'command';
  process.env.CONFORMANCE_RESOLVED_DESCRIPTION = description;
  return async () => {
    // A stall the workers recorded is a run error: the reporter (in this process) reads it from here.
    const stalled = unresponsive();
    if (stalled) process.env.CONFORMANCE_TARGET_STALLED = stalled;
    try {
      await instance?.stop();
    } finally {
      removeHealth();
    }
  };
}
