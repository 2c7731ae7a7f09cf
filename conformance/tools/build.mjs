#!/usr/bin/env node
// Compiles the suite's TypeScript to JavaScript in dist/ (run by `npm pack` through `prepack`).
// Why: Node strips types only outside node_modules (ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING), so an
// installed package must ship JavaScript. tsc with rewriteRelativeImportExtensions turns the `./x.ts`
// imports into `./x.js`; the sources stay the truth, and a clone still runs them as they are.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
fs.rmSync(path.join(pkg, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', path.join(pkg, 'tsconfig.build.json')], { stdio: 'inherit' });
// Plain JavaScript the compiled code imports as it is, with its typings (api.d.ts refers to them).
for (const name of ['options', 'exit-codes', 'run-folder'])
  for (const ext of ['.mjs', '.d.mts'])
    fs.copyFileSync(path.join(pkg, `support/${name}${ext}`), path.join(pkg, `dist/support/${name}${ext}`));
// tsc keeps `./x.ts` in the declarations it writes: a consumer's compiler finds `./x.js` (→ x.d.ts).
// The typings are for the API (api.d.ts and what it refers to); the tests' and the config's go.
for (const file of fs.readdirSync(path.join(pkg, 'dist'), { recursive: true, encoding: 'utf8' }))
  if (/^(tests\/.*|playwright\.config)\.d\.ts$/.test(file)) fs.rmSync(path.join(pkg, 'dist', file));
  else if (file.endsWith('.d.ts')) {
    const full = path.join(pkg, 'dist', file);
    fs.writeFileSync(full, fs.readFileSync(full, 'utf8').replace(/(from '\.{1,2}\/[^']*)\.ts'/g, "$1.js'"));
  }
console.log(`build: ${path.relative(process.cwd(), path.join(pkg, 'dist')) || 'dist'} written`);
