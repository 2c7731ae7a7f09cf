import { area } from './area.ts';

/** The rules checked by tests/exactness.spec.ts: section Consequences along axes. */
export const EXACTNESS = area('Consequences along axes', 'tests/exactness.spec.ts', [
  {
    id: 'USR-EXACT-01',
    level: 'MUST',
    title: 'text is stored as sent: white space at either end, case, Unicode normalisation forms',
    spec: 'name and profession are free text: whatever text was stored is served back unchanged (no trimming, case folding or normalisation).',
    statements: ['RES-USER-3', 'A-R3.1', 'A-R4.1'],
    axes: ['exactness'],
  },
  {
    id: 'USR-EXACT-02',
    level: 'MUST',
    title: 'the longest text accepted is stored whole',
    spec: 'Length limits are open, but a value that is accepted is stored and served back unchanged: never cut.',
    statements: ['RES-USER-3', 'RES-USER-6'],
    axes: ['exactness'],
  },
]);
