import { area } from './area.ts';

/** The rules checked by tests/delete.spec.ts: section A.5 DELETE. */
export const DELETE = area('A.5 DELETE', 'tests/delete.spec.ts', [
  // --- DELETE
  {
    id: 'USR-DEL-01',
    level: 'MUST',
    title: 'DELETE of an existing id answers the success result',
    spec: 'DELETE removes the user whose id equals {userid}. If it existed, the body is the success result.',
    statements: ['A-EP-5', 'A-R5.1', 'SVC-8'],
  },
  {
    id: 'USR-DEL-02',
    level: 'MUST',
    title: 'DELETE removes that user and only that user',
    spec: 'DELETE removes the user whose id equals {userid}.',
    statements: ['A-R5.1', 'SVC-1', 'SVC-2', 'STATE-1'],
    axes: ['freshness'],
  },
  {
    id: 'USR-DEL-03',
    level: 'MUST',
    title: 'DELETE of an unknown id answers the failure result',
    spec: 'If none exists, ... the body is the failure result.',
    statements: ['A-R5.2', 'ERR-1', 'SVC-8'],
  },
  {
    id: 'USR-DEL-04',
    level: 'MUST',
    title: 'DELETE of an unknown id changes nothing',
    spec: 'If none exists, nothing changes.',
    statements: ['A-R5.2'],
  },
  {
    id: 'USR-DEL-05',
    level: 'MUST',
    title: 'repeating a DELETE leaves the same state',
    spec: 'PUT and DELETE are idempotent in the sense that the resulting state is the same however many times they are called.',
    statements: ['SVC-4'],
  },
]);
