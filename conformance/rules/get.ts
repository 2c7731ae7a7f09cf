import { area } from './area.ts';

/** The rules checked by tests/get.spec.ts: section A.2 GET by id. */
export const GET = area('A.2 GET by id', 'tests/get.spec.ts', [
  // --- GET by id
  {
    id: 'USR-GET-01',
    level: 'MUST',
    title: 'GET by id answers the user element with that id',
    spec: 'GET /UserService/users/{userid} returns the user whose id equals {userid} (application/xml, one user element).',
    statements: ['A-EP-2', 'A-R2', 'A-PATH-1', 'RES-USER-1'],
  },
  {
    id: 'USR-GET-04',
    level: 'MUST',
    title: 'reads change nothing (GET, HEAD and OPTIONS of an unknown id create nothing)',
    spec: 'GET is read-only and safe.',
    statements: ['SVC-3'],
  },
  {
    id: 'USR-GET-02',
    level: 'SHOULD',
    title: 'GET of an unknown id answers no user and no 5xx',
    spec: 'Sound practice: a read of a missing resource is a client-side outcome, not a user and not a server error.',
    statements: ['A-R9'],
  },
  {
    id: 'USR-GET-03',
    level: 'INFO',
    title: 'status and body of GET for an unknown id',
    spec: 'GET by id when no user has that id: not shown.',
    statements: ['A-R9'],
  },
]);
