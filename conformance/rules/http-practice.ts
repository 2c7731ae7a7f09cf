import { area } from './area.ts';

/** The rules checked by tests/http-practice.spec.ts: section HTTP practice. */
export const HTTP_PRACTICE = area('HTTP practice', 'tests/http-practice.spec.ts', [
  // --- HTTP practice
  {
    id: 'HTTP-01',
    level: 'SHOULD',
    title: 'a failure result is not a 5xx',
    spec: 'A rejected change (duplicate id, unknown id) is a client-side outcome, not a server error.',
    statements: ['ERR-2'],
  },
  {
    id: 'HTTP-02',
    level: 'SHOULD',
    title: 'a success result comes with a 2xx status',
    spec: 'HTTP practice: a successful write is answered 2xx.',
    statements: ['A-R10'],
  },
  {
    id: 'HTTP-03',
    level: 'SHOULD',
    title: 'an unknown path answers 404',
    spec: 'HTTP practice: a path the service does not serve is 404 Not Found.',
    statements: ['SCOPE-2'],
  },
  {
    id: 'HTTP-04',
    level: 'SHOULD',
    title: 'invalid input is refused without a 5xx and changes nothing',
    spec: 'Behaviour on a missing field or a non-integer id is not shown; it is still not a server error and not a write.',
    // RES-USER-1: a form without a field that is stored must still be served with both elements.
    statements: ['A-R11', 'RES-USER-1'],
  },
]);
