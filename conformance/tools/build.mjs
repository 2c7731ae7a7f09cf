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
// Plain JavaScript the compiled code imports as it is.
fs.copyFileSync(path.join(pkg, 'support/options.mjs'), path.join(pkg, 'dist/support/options.mjs'));
console.log(`build: ${path.relative(process.cwd(), path.join(pkg, 'dist')) || 'dist'} written`);
