#!/usr/bin/env node
// The revision of docs/SPEC.md the suite checks: `sha256:` and the first 12 hex digits of the hash of its
// text without the generated *checked by* parts (so regenerating coverage does not change it, and any
// change to a statement does). Kept in package.json as `specRevision`; reports carry it as spec.revision.
//   node tools/spec-revision.mjs SPEC.md           prints it
//   node tools/spec-revision.mjs SPEC.md --write   stores it in package.json
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function specRevision(text) {
  const statements = text.replace(/\r\n/g, '\n').replace(/<!-- rules -->.*$/gm, '');
  return `sha256:${createHash('sha256').update(statements).digest('hex').slice(0, 12)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, flag] = process.argv.slice(2);
  if (!file) {
    console.error('usage: spec-revision.mjs SPEC.md [--write]');
    process.exit(2);
  }
  const revision = specRevision(fs.readFileSync(file, 'utf8'));
  if (flag === '--write') {
    const manifest = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
    const text = fs.readFileSync(manifest, 'utf8');
    fs.writeFileSync(manifest, text.replace(/"specRevision": "[^"]*"/, `"specRevision": "${revision}"`));
  }
  console.log(revision);
}
