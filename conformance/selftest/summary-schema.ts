/**
 * Checks a summary.json the self-test produced as compare checks one (report/schema.ts), and with Ajv
 * (JSON Schema 2020-12) beside it: the two must agree, so that the suite's own reading of the schema
 * stays the standard one. The self-test calls it on every report it produces.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { validateSummary as check, summaryProblems } from '../report/schema.ts';

const schemaFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../summary.schema.json');
const ajv = new Ajv2020({ allErrors: true, strict: true, validateFormats: false });
const ajvValidate = ajv.compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')));

/** The problems Ajv finds (none: it matches). */
export function ajvProblems(summary: unknown): string[] {
  if (ajvValidate(summary)) return [];
  return (ajvValidate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/** Throws, saying what is wrong, unless `summary` matches summary.schema.json and both checks say so. */
export function validateSummary(summary: unknown, what = 'summary.json'): void {
  const ours = summaryProblems(summary);
  const theirs = ajvProblems(summary);
  if (!ours.length !== !theirs.length)
    throw new Error(
      `report/schema.ts and Ajv disagree on ${what}: report/schema.ts: ${ours.join('; ') || 'matches'}; Ajv: ${theirs.join('; ') || 'matches'}`,
    );
  check(summary, what);
}
