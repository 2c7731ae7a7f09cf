/**
 * The suite as an outsider gets it, for the self-tests that need it: `npm pack` of this package (once
 * per test process, however many tests ask) and an install of the tarball into an empty folder outside
 * the repository.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8'));
let tarball: string | undefined;

export const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/** The packed suite (npm pack compiles it to dist/): its tarball, made on the first call. */
export function packedSuite(): string {
  if (tarball && fs.existsSync(tarball)) return tarball;
  const dir = tmp('conformance-pack-');
  execFileSync('npm', ['pack', '--pack-destination', dir, '--loglevel=error'], { cwd: pkg, stdio: 'ignore' });
  tarball = path.join(dir, `user-service-conformance-${manifest.version}.tgz`);
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return tarball;
}

/** A new folder outside the repository with the packed suite installed (as `npm install <tarball>`). */
export function installPacked(prefix = 'conformance-install-'): string {
  const folder = tmp(prefix);
  fs.writeFileSync(
    path.join(folder, 'package.json'),
    JSON.stringify({ name: 'outsider', private: true, type: 'module' }),
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', packedSuite()], {
    cwd: folder,
    stdio: 'ignore',
  });
  return folder;
}
