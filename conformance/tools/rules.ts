/**
 * `user-service-conformance rules [--json]`: the rule catalogue (rules/index.ts) as a table, or as JSON data
 * (id, level, section, title, spec, statements, needs, axes) for tools that pick rules to run.
 */
import path from 'node:path';
import { RULES } from '../rules/index.ts';

/** The catalogue as data: what a rule is, without where its test lives in this package. */
export function catalogue() {
  return RULES.map((r) => ({
    id: r.id,
    level: r.level,
    section: r.section,
    title: r.title,
    spec: r.spec,
    statements: [...r.statements],
    needs: r.needs ?? null,
    axes: [...(r.axes ?? [])],
  }));
}

export function renderTable(rules = catalogue()): string {
  const idWidth = Math.max(...rules.map((r) => r.id.length));
  return rules
    .map(
      (r) =>
        `${r.id.padEnd(idWidth)}  ${r.level.padEnd(6)}  ${r.title}  [${r.statements.join(', ')}]${r.axes.length ? ` axes: ${r.axes.join(', ')}` : ''}${r.needs ? ` (needs a ${r.needs} instance)` : ''}`,
    )
    .join('\n');
}

function main(argv: string[]): number {
  if (argv.some((a) => a !== '--json')) {
    console.error('usage: user-service-conformance rules [--json]');
    return 2;
  }
  console.log(argv.includes('--json') ? JSON.stringify(catalogue(), null, 2) : renderTable());
  return 0;
}

if (
  process.argv[1] &&
  path.resolve(process.argv[1]).replace(/\.[jt]s$/, '') === import.meta.filename.replace(/\.[jt]s$/, '')
)
  process.exitCode = main(process.argv.slice(2));
