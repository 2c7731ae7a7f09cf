/**
 * The variable table of docs/configuration.md, generated from the settings table (server/src/config.ts).
 * `make docs` rewrites it; server/test/configuration-doc.test.ts fails when the page and the table differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DOCUMENTED_ONLY, SETTINGS } from '../server/src/config.ts';
import { withBlock } from './lib/generated-block.ts';

export const CONFIGURATION_DOC = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));
const MARKERS = {
  begin: '<!-- variable table: generated from server/src/config.ts by `make docs` -->',
  end: '<!-- end of variable table -->',
};

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The table, one row per variable, in the settings' order, then the ones Node reads. */
export function renderSettingsTable(): string {
  const rows = [...Object.values(SETTINGS), ...DOCUMENTED_ONLY].map(
    (setting) => `| \`${setting.env}\` | ${cell(setting.default)} | ${cell(setting.doc)} |`,
  );
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The page with its table block replaced by `table`. */
export function withSettingsTable(page: string, table: string): string {
  return withBlock(page, MARKERS, table, 'docs/configuration.md');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(
    CONFIGURATION_DOC,
    withSettingsTable(readFileSync(CONFIGURATION_DOC, 'utf8'), renderSettingsTable()),
  );
}
