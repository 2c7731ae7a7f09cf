import { area } from './area.ts';

/** The rules checked by tests/size.spec.ts: section Consequences along axes. */
export const SIZE = area('Consequences along axes', 'tests/size.spec.ts', [
  {
    id: 'USR-SIZE-01',
    level: 'MUST',
    title: 'GET list answers every user beyond 1,000 and 10,000 users',
    spec: 'GET of the list answers every user of the collection, in one answer; no size limit or page size is specified.',
    statements: ['A-R1.1', 'LIM-1'],
    axes: ['size'],
  },
]);
