/**
 * Validates a summary.json against the schema the package ships (summary.schema.json), with Ajv (JSON
 * Schema 2020-12). The self-test calls it on every report it produces.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';

const schemaFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../summary.schema.json');
const ajv = new Ajv2020({ allErrors: true, strict: true, validateFormats: false });
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')));

/** Throws, listing every violation, when `summary` does not match summary.schema.json. */
export function validateSummary(summary: unknown, what = 'summary.json'): void {
  if (validate(summary)) return;
  const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
  throw new Error(`${what} does not match summary.schema.json: ${problems}`);
}
