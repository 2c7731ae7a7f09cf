import { area } from './area.ts';

/** The rules checked by tests/sequence.spec.ts: section A. Known test sequence. */
export const SEQUENCE = area('A. Known test sequence', 'tests/sequence.spec.ts', [
  // --- Known sequence
  {
    id: 'USR-SEQ-01',
    level: 'MUST',
    title: 'the known test sequence holds on a fresh service',
    spec: 'List is non-empty; GET id 1 returns id 1; POST id 1 with new name and profession returns success; PUT id 2 returns success; DELETE id 2 returns success.',
    statements: ['A-SEQ-1', 'A-SEQ-2', 'A-SEQ-3', 'A-SEQ-4', 'A-SEQ-5'],
    needs: 'fresh',
  },
  {
    id: 'USR-SEQ-02',
    level: 'MUST',
    title:
      'after the known sequence, the collection holds exactly user 1, with the POSTed name and profession',
    spec: 'The state the known sequence leaves: POST replaced user 1 wholesale, PUT added user 2, DELETE removed it.',
    statements: ['A-SEQ-6', 'A-R4.1'],
    needs: 'fresh',
  },
]);
