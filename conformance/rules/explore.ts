import { area } from './area.ts';

/** The rules checked by tests/explore.spec.ts: section Consequences along axes. */
export const EXPLORE = area('Consequences along axes', 'tests/explore.spec.ts', [
  // --- Exploration: random sequences and concurrent histories checked against the model (explore/)
  {
    id: 'EXP-SEQ-01',
    level: 'MUST',
    title: 'random sequences of operations agree with the model, step by step and in the state they leave',
    spec: 'Every answer of a seeded random sequence of section A operations (ids and texts drawn along every axis) is one the spec allows, and the collection read back is the one the spec says; a failure is shrunk to a minimal sequence and reported once per defect.',
    statements: [
      'A-R1.1',
      'A-R2',
      'A-R3.2',
      'A-R3.3',
      'A-R4.1',
      'A-R4.2',
      'A-R5.1',
      'A-R5.2',
      'RES-USER-2',
      'RES-USER-3',
      'A-PATH-1',
    ],
    axes: ['exactness', 'identity', 'freshness'],
  },
  {
    id: 'EXP-CONC-01',
    level: 'MUST',
    title: 'concurrent random writes and reads form a history some one-at-a-time order explains',
    spec: 'Each operation takes effect at one moment between its request and its answer: the answers of clients writing and reading a few ids at once are those of some sequential order of the same operations (linearizability, checked id by id against the model); every pair of writes meets.',
    statements: ['A-R2', 'A-R3.2', 'A-R3.3', 'A-R4.1', 'A-R4.2', 'A-R5.1', 'A-R5.2', 'RES-USER-2'],
    axes: ['concurrency'],
  },
]);
