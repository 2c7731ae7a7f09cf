import { area } from './area.ts';

/** The rules checked by tests/put.spec.ts: section A.3 PUT (create). */
export const PUT = area('A.3 PUT (create)', 'tests/put.spec.ts', [
  // --- PUT
  {
    id: 'USR-PUT-01',
    level: 'MUST',
    title: 'PUT of a new id answers the success result',
    spec: 'PUT creates a user from the form fields. If no user with that id exists, ... the body is the success result.',
    statements: ['A-EP-3', 'A-R3.2', 'RES-RESULT-1', 'SVC-8'],
  },
  {
    id: 'USR-PUT-02',
    level: 'MUST',
    title: 'PUT of a new id appends the user with the submitted fields',
    spec: 'If no user with that id exists, the user is appended.',
    statements: ['A-R3.1', 'A-R3.2', 'SVC-1', 'SVC-2', 'STATE-1'],
    axes: ['freshness'],
  },
  {
    id: 'USR-PUT-03',
    level: 'MUST',
    title: 'PUT of an existing id answers the failure result',
    spec: 'If a user with that id already exists, ... the body is the failure result.',
    statements: ['A-R3.3', 'ERR-1', 'SVC-8'],
  },
  {
    id: 'USR-PUT-04',
    level: 'MUST',
    title: 'PUT of an existing id changes nothing',
    spec: 'If a user with that id already exists, nothing changes.',
    statements: ['A-R3.3'],
  },
  {
    id: 'USR-PUT-05',
    level: 'MUST',
    title: 'bursts of concurrent PUTs of one new id: exactly one success each',
    spec: 'PUT creates only when no user with that id exists (rule 3), whatever the concurrency.',
    statements: ['A-R3.2', 'A-R3.3', 'RES-USER-2'],
    axes: ['concurrency'],
  },
  {
    id: 'USR-PUT-06',
    level: 'MUST',
    title: 'repeating a PUT leaves the same state',
    spec: 'PUT and DELETE are idempotent in the sense that the resulting state is the same however many times they are called.',
    statements: ['SVC-4'],
  },
  {
    id: 'USR-PUT-07',
    level: 'MUST',
    title: 'PUT of a user equal to a stored one (same id, name, profession) answers the failure result',
    spec: 'If a user with that id already exists, nothing changes and the body is the failure result (equality of users does not make it a success).',
    statements: ['A-R3.3', 'RES-USER-4'],
  },
]);
