import { area } from './area.ts';

/** The rules checked by tests/freshness.spec.ts: section Consequences along axes. */
export const FRESHNESS = area('Consequences along axes', 'tests/freshness.spec.ts', [
  {
    id: 'USR-FRESH-01',
    level: 'MUST',
    title: 'a read right after a write sees it, through the list, by id and HEAD',
    spec: 'The collection outlives the request that changed it: a later request sees the change, whatever it reads through.',
    statements: ['SVC-9', 'A-R1.1', 'A-R2', 'A-R7'],
    axes: ['freshness'],
  },
]);
