import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ERRORS_DOC, renderErrorTable, withTable } from '../../scripts/errors-doc.ts';
import { ERRORS, type ErrorEntry } from '../src/errors.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const catalogue = ERRORS as Record<string, ErrorEntry>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('errors: the catalogue and its documentation', () => {
  it('docs/errors.md shows exactly the catalogue (run `make docs` after changing server/src/errors.ts)', () => {
    const page = readFileSync(ERRORS_DOC, 'utf8');
    expect(page, 'docs/errors.md').to.equal(withTable(page, renderErrorTable()));
  });

  it('no error table elsewhere in the README or docs/ disagrees with the catalogue', () => {
    const pages = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).map((name) => `docs/${name}`)];
    for (const page of pages.filter((name) => name.endsWith('.md'))) {
      const text = readFileSync(path.join(ROOT, page), 'utf8');
      // A row of an error table: | status | `code` | ...
      for (const [, status, code] of text.matchAll(/^\| *(\d{3}) *\| *`([a-z_]+)` *\|/gm)) {
        expect(catalogue[code as string], `${page}: ${code}`).to.not.equal(undefined);
        expect(catalogue[code as string]?.status, `${page}: status of ${code}`).to.equal(Number(status));
      }
    }
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).to.include('docs/errors.md');
  });

  it('each entry is well-formed: an error status, a snake_case code, a body that carries it or names another', () => {
    for (const [code, entry] of Object.entries(catalogue)) {
      expect(code).to.match(/^[a-z]+(_[a-z]+)*$/);
      expect(entry.status, code).to.be.within(400, 599);
      expect(entry.in.length, code).to.be.greaterThan(0);
      if (entry.otherwise !== undefined) {
        const instead = catalogue[entry.otherwise];
        expect(instead?.status, `${code} answered as ${entry.otherwise}`).to.equal(entry.status);
        for (const representation of ['xml', 'json'] as const) {
          if (!entry.in.includes(representation)) expect(instead?.in).to.include(representation);
        }
      }
    }
  });

  it('every code is raised somewhere in server/src (no dead entry)', () => {
    const sources = sourceFiles(path.join(ROOT, 'server/src'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    for (const code of Object.keys(catalogue)) {
      expect(sources.includes(`'${code}'`), `'${code}' is named by no throw site`).to.equal(true);
    }
  });
});
