/**
 * Resolves the target once for the whole run (see target.ts) and hands it to the workers through the
 * environment. Returns the teardown that stops what it started.
 */
import { type Instance, startCommandInstance, startReferenceInstance, waitUntilAnswering } from './target.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const url = process.env.CONFORMANCE_BASE_URL;
  const command = process.env.CONFORMANCE_START_COMMAND;
  let instance: Instance | undefined;
  let mode: string;
  let description: string;
  if (url) {
    try {
      await waitUntilAnswering(url, Number(process.env.CONFORMANCE_START_TIMEOUT_MS || 10_000));
    } catch (err) {
      throw new Error(`the target never answered: ${(err as Error).message}`);
    }
    mode = 'url';
    description = command ? `${url} (fresh instances: ${command})` : url;
  } else if (command) {
    instance = await startCommandInstance(command);
    mode = 'command';
    description = `command: ${command}`;
  } else {
    instance = await startReferenceInstance();
    mode = 'reference';
    description = 'reference server (this repository) on its own Redis';
  }
  process.env.CONFORMANCE_RESOLVED_URL = url ?? instance?.url;
  process.env.CONFORMANCE_RESOLVED_MODE = mode;
  process.env.CONFORMANCE_RESOLVED_DESCRIPTION = description;
  return async () => {
    await instance?.stop();
  };
}
