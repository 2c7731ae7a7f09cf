import type { Rule, Section } from './types.ts';

/** A rule as an area declares it: the section and the spec file are the area's. */
export type AreaRule = Omit<Rule, 'section' | 'file'>;

/**
 * The rules of one area: one spec file (`tests/<area>.spec.ts`) and the section of the spec they come
 * from, declared once for all of them.
 */
export function area(section: Section, file: Rule['file'], rules: readonly AreaRule[]): Rule[] {
  // The catalogue's field order (id, level, section, ..., file), as `rules --json` prints it.
  return rules.map(({ id, level, ...rest }) => ({ id, level, section, ...rest, file }));
}
