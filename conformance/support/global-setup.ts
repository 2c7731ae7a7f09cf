/**
 * Resolves the target once for the whole run (see target.ts) and hands it to the workers through the
 * environment. Returns the teardown that stops what it started.
 */
import { setting } from './options.mjs';
import { type Instance, startCommandInstance, waitUntilAnswering } from './target.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const url = process.env.CONFORMANCE_BASE_URL;
  const command = process.env.CONFORMANCE_START_COMMAND;
  let instance: Instance | undefined;
  let description: string;
  if (url) {
    try {
      await waitUntilAnswering(url, Number(setting('CONFORMANCE_START_TIMEOUT_MS')));
    } catch (err) {
      throw new Error(`the target never answered: ${(err as Error).message}`);
    }
    description = command ? `${url} (fresh instances: ${command})` : url;
  } else if (command) {
    // The shared instance is stopped after the last rule: nobody to report a forced stop to but the log.
    instance = await startCommandInstance(command, (text) => console.error(`conformance: ${text}`));
    description = `command: ${command}`;
  } else {
    throw new Error('no target: give a base URL (--base-url) or a start command (--start)');
  }
  process.env.CONFORMANCE_RESOLVED_URL = url ?? instance?.url;
  process.env.CONFORMANCE_RESOLVED_MODE = url ? 'url' : 'command';
  process.env.CONFORMANCE_RESOLVED_DESCRIPTION = description;
  return async () => {
    await instance?.stop();
  };
}
