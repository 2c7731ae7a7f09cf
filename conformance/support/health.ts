/**
 * What the run knows about the implementation as a whole, shared by the workers through a folder that
 * global setup makes (CONFORMANCE_HEALTH_DIR):
 *
 * - `exited`: the shared instance exited during the run (written by global setup, which started it);
 * - `unresponsive`: a request got no answer, or an answer whose body never ended, within the bound.
 *   Later requests of the run are not sent: each would wait as long again, and the run would take
 *   rules × bound; the rules that would have sent them could not finish, and say why;
 * - `broken`: the shared instance answers every request with a server error after a rule found its
 *   state corrupted. Where the suite can start instances, each later rule runs on one of its own, so
 *   that one defect does not hide the rest (support/rule.ts).
 */
import fs from 'node:fs';
import path from 'node:path';

const file = (name: string) => {
  const dir = process.env.CONFORMANCE_HEALTH_DIR;
  return dir ? path.join(dir, name) : undefined;
};

function read(name: string): string | undefined {
  const at = file(name);
  if (!at) return undefined;
  try {
    return fs.readFileSync(at, 'utf8');
  } catch {
    return undefined;
  }
}

/** Records a fact once: the first worker to see it names it. */
function write(name: string, text: string): void {
  const at = file(name);
  if (!at) return;
  try {
    fs.writeFileSync(at, text, { flag: 'wx' });
  } catch {}
}

export const exited = () => read('exited');
export const markExited = (text: string) => write('exited', text);
export const unresponsive = () => read('unresponsive');
export const markUnresponsive = (text: string) => write('unresponsive', text);
export const sharedBroken = () => read('broken');
export const markSharedBroken = (text: string) => write('broken', text);
