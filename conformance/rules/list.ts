import { area } from './area.ts';

/** The rules checked by tests/list.spec.ts: section A.1 GET list. */
export const LIST = area('A.1 GET list', 'tests/list.spec.ts', [
  // --- GET list
  {
    id: 'USR-LIST-01',
    level: 'MUST',
    title: 'GET list answers an XML list of user elements',
    spec: 'GET /UserService/users: application/xml, a list of user elements (id, name, profession).',
    statements: ['A-EP-1', 'RES-USER-1'],
  },
  {
    id: 'USR-LIST-02',
    level: 'MUST',
    title: 'GET list returns every user of the collection with its fields',
    spec: 'GET list returns all users in the collection.',
    statements: ['A-R1.1', 'SVC-1'],
  },
  {
    id: 'USR-LIST-03',
    level: 'INFO',
    title: 'name of the element wrapping the list, and the order',
    spec: 'Element name wrapping the list of users in the list response: not shown.',
    statements: ['RES-USER-5'],
  },
  {
    id: 'USR-LIST-04',
    level: 'MUST',
    title: 'GET list is not paged: 205 new users all appear in one answer',
    spec: 'GET list returns all users in the collection; no page size is specified.',
    statements: ['A-R1.1', 'LIM-1'],
    axes: ['size'],
  },
]);
