// Where a run's reports go when --out does not say: a new folder per run under REPORT_ROOT, named by the
// time it began, and REPORT_ROOT/latest linked to the last one. Shared by cli.mjs and api.ts.
// Plain JavaScript, so that cli.mjs can read it before anything is compiled or type-stripped.
import fs from 'node:fs';
import path from 'node:path';
import { REPORT_ROOT } from './options.mjs';

/** A new folder (created) for this run's reports under REPORT_ROOT of `cwd`. */
export function newRunFolder(cwd) {
  const root = path.resolve(cwd, REPORT_ROOT);
  fs.mkdirSync(root, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  for (let n = 1; ; n++) {
    const dir = path.join(root, n === 1 ? stamp : `${stamp}-${n}`);
    try {
      fs.mkdirSync(dir);
      return dir;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
  }
}

/** Points `latest` beside the run's folder at it (a relative symlink, replaced in one step). */
export function linkLatest(dir) {
  const link = path.join(path.dirname(dir), 'latest');
  const temporary = `${link}.${process.pid}`;
  try {
    fs.rmSync(temporary, { force: true });
    fs.symlinkSync(path.basename(dir), temporary);
    fs.renameSync(temporary, link);
  } catch (err) {
    fs.rmSync(temporary, { force: true });
    console.error(`conformance: could not link ${link}: ${err.message}`);
  }
}
