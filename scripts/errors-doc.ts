/**
 * The error table of docs/errors.md, generated from the catalogue (server/src/errors.ts).
 * `make errors-doc` rewrites it; server/test/errors-doc.test.ts fails when the page and the catalogue differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ERRORS, type ErrorEntry, type Representation } from '../server/src/errors.ts';
import { withBlock } from './lib/generated-block.ts';

export const ERRORS_DOC = fileURLToPath(new URL('../docs/errors.md', import.meta.url));
const MARKERS = {
  begin: '<!-- error table: generated from server/src/errors.ts by `make errors-doc` -->',
  end: '<!-- end of error table -->',
};

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function carried(entry: ErrorEntry, representation: Representation): string {
  if (entry.in.includes(representation)) return 'yes';
  return entry.otherwise ? `as \`${entry.otherwise}\`` : '—';
}

/** The table, one row per code, in the catalogue's order (by status). */
export function renderErrorTable(): string {
  const rows = Object.entries(ERRORS as Record<string, ErrorEntry>).map(([code, entry]) => {
    const headers = Object.entries(entry.headers ?? {})
      .map(([name, value]) => `\`${name}: ${value}\``)
      .join(', ');
    return `| ${entry.status} | \`${code}\` | ${carried(entry, 'xml')} | ${carried(entry, 'json')} | ${cell(entry.message)} | ${headers} | ${cell(entry.when)} |`;
  });
  return [
    '| Status | Code | XML | JSON | Default message | Headers | When |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** The page with its table block replaced by `table`. */
export function withTable(page: string, table: string): string {
  return withBlock(page, MARKERS, table, 'docs/errors.md');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(ERRORS_DOC, withTable(readFileSync(ERRORS_DOC, 'utf8'), renderErrorTable()));
}
