/**
 * A summary.json checked against summary.schema.json, the schema the package ships: a summary read back
 * from disk (compare) is one this suite could have written, or an error naming the file and what is
 * wrong. The check reads the schema as it is and knows the keywords the schema uses; a schema with
 * another keyword is refused rather than half-checked (the self-test checks the same summaries with Ajv).
 * No dependency: an installed suite does not need a JSON Schema validator for this.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Summary } from './summary.ts';

type Schema = Readonly<Record<string, unknown>>;

/** Keywords that describe, not constrain (formats are not checked, as Ajv's default for 2020-12). */
const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', '$defs', 'format']);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const TYPES: Record<string, (v: unknown) => boolean> = {
  object: isObject,
  array: Array.isArray,
  string: (v) => typeof v === 'string',
  integer: Number.isInteger,
  number: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
};

// A JSON Pointer to the value (RFC 6901), as Ajv names where a problem is.
const pointer = (at: string, key: string | number) =>
  `${at}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The ways `value` does not match `schema` (none: it matches), each as `/where what`. */
export function schemaProblems(schema: Schema, value: unknown, root: Schema = schema, at = ''): string[] {
  const out: string[] = [];
  const where = at || '/';
  for (const [keyword, arg] of Object.entries(schema)) {
    switch (keyword) {
      case '$ref': {
        const name = /^#\/\$defs\/(.+)$/.exec(String(arg))?.[1];
        const target = name ? (root.$defs as Record<string, Schema> | undefined)?.[name] : undefined;
        if (!target) throw new Error(`summary.schema.json: $ref ${String(arg)} names no $defs entry`);
        out.push(...schemaProblems(target, value, root, at));
        break;
      }
      case 'type': {
        const test = TYPES[String(arg)];
        if (!test) throw new Error(`summary.schema.json: unknown type ${String(arg)}`);
        if (!test(value)) out.push(`${where} must be of type ${String(arg)}`);
        break;
      }
      case 'enum':
        if (!(arg as unknown[]).includes(value))
          out.push(`${where} must be one of ${(arg as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
        break;
      case 'const':
        if (value !== arg) out.push(`${where} must be ${JSON.stringify(arg)}`);
        break;
      case 'required':
        if (isObject(value))
          for (const name of arg as string[])
            if (!Object.hasOwn(value, name)) out.push(`${where} must have the property ${name}`);
        break;
      case 'properties':
        if (isObject(value))
          for (const [name, sub] of Object.entries(arg as Record<string, Schema>))
            if (Object.hasOwn(value, name))
              out.push(...schemaProblems(sub, value[name], root, pointer(at, name)));
        break;
      case 'additionalProperties':
        if (isObject(value)) {
          const known = (schema.properties ?? {}) as Record<string, Schema>;
          for (const [name, v] of Object.entries(value)) {
            if (Object.hasOwn(known, name)) continue;
            if (arg === false) out.push(`${pointer(at, name)} is not a property the schema allows`);
            else if (isObject(arg)) out.push(...schemaProblems(arg, v, root, pointer(at, name)));
          }
        }
        break;
      case 'items':
        if (Array.isArray(value))
          value.forEach((item, i) => {
            out.push(...schemaProblems(arg as Schema, item, root, pointer(at, i)));
          });
        break;
      case 'pattern':
        if (typeof value === 'string' && !new RegExp(String(arg), 'u').test(value))
          out.push(`${where} must match the pattern ${String(arg)}`);
        break;
      case 'minLength':
        // Characters as JSON Schema counts them: code points.
        if (typeof value === 'string' && [...value].length < Number(arg))
          out.push(`${where} must have at least ${String(arg)} character(s)`);
        break;
      case 'minimum':
        if (typeof value === 'number' && value < Number(arg)) out.push(`${where} must be >= ${String(arg)}`);
        break;
      default:
        if (!ANNOTATIONS.has(keyword))
          throw new Error(`summary.schema.json: the keyword ${keyword} is not one report/schema.ts checks`);
    }
  }
  return out;
}

let schema: Schema | undefined;

/** summary.schema.json: one folder up in a clone, two from dist/report/ in an installed package. */
function summarySchema(): Schema {
  if (schema) return schema;
  const here = path.dirname(fileURLToPath(import.meta.url));
  const file = [
    path.join(here, '..', 'summary.schema.json'),
    path.join(here, '..', '..', 'summary.schema.json'),
  ].find((f) => fs.existsSync(f));
  if (!file) throw new Error(`summary.schema.json not found from ${here}`);
  schema = JSON.parse(fs.readFileSync(file, 'utf8')) as Schema;
  return schema;
}

/** The ways `data` does not match summary.schema.json (none: it is a summary). */
export const summaryProblems = (data: unknown): string[] => schemaProblems(summarySchema(), data);

/** How many problems an error lists: a file of another kind has one per field. */
const SHOWN = 5;

/** Throws, naming `what` and what is wrong, unless `data` matches summary.schema.json. */
export function validateSummary(data: unknown, what = 'summary.json'): asserts data is Summary {
  const problems = summaryProblems(data);
  if (!problems.length) return;
  const more = problems.length > SHOWN ? `; and ${problems.length - SHOWN} more` : '';
  throw new Error(
    `${what} does not match summary.schema.json: ${problems.slice(0, SHOWN).join('; ')}${more}`,
  );
}

/** A summary.json read back from disk: read, parsed and checked, or an error naming the file and why. */
export function readSummary(file: string): Summary {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`${file} could not be read: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not JSON: ${(err as Error).message}`);
  }
  validateSummary(data, file);
  return data;
}
