import { area } from './area.ts';

/** The rules checked by tests/head.spec.ts: section A.7 HEAD. */
export const HEAD = area('A.7 HEAD', 'tests/head.spec.ts', [
  // --- HEAD
  {
    id: 'USR-HEAD-01',
    level: 'MUST',
    title: 'HEAD of the list answers without a body',
    spec: 'HEAD /UserService/users: headers only, no body.',
    statements: ['A-EP-7', 'A-R7'],
  },
  {
    id: 'USR-HEAD-02',
    level: 'MUST',
    title: "HEAD answers the status and headers of GET's list",
    spec: 'HEAD returns the headers that a GET of the list would return, without a body.',
    statements: ['A-R7'],
  },
  {
    id: 'USR-HEAD-03',
    level: 'SHOULD',
    title: "HEAD of a user by id answers GET's status without a body",
    spec: 'HTTP practice (RFC 9110 9.3.2): HEAD is GET without the content, on every resource that answers GET.',
    statements: ['A-R7'],
  },
]);
