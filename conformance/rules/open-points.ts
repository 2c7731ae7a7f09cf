import { area } from './area.ts';

/** The rules checked by tests/open-points.spec.ts: section A. Open points (recorded). */
export const OPEN_POINTS = area('A. Open points (recorded)', 'tests/open-points.spec.ts', [
  // --- Open points
  {
    id: 'USR-OPEN-01',
    level: 'INFO',
    title: 'statuses accompanying the success result',
    spec: 'The status of a successful write: not shown.',
    statements: ['ERR-2'],
  },
  {
    id: 'USR-OPEN-02',
    level: 'INFO',
    title: 'statuses accompanying the failure result',
    spec: 'HTTP status code that accompanies a failure result: not shown.',
    statements: ['A-R10', 'ERR-2'],
  },
  {
    id: 'USR-OPEN-03',
    level: 'INFO',
    title: 'PUT and POST on /UserService/users/{userid}',
    spec: 'Payload and behaviour of the id-suffixed PUT/POST forms: not shown.',
    statements: ['A-R8'],
  },
  {
    id: 'USR-OPEN-04',
    level: 'INFO',
    title: 'answers to a missing field or a non-integer id',
    spec: 'Behaviour when a form field is missing or id is not an integer: not shown.',
    statements: ['A-R11'],
  },
  {
    id: 'USR-OPEN-05',
    level: 'INFO',
    title: 'an empty name and a name of 10,000 characters',
    spec: 'Length limits and formats of name and profession: not shown.',
    statements: ['RES-USER-6'],
    axes: ['exactness'],
  },
  {
    id: 'USR-OPEN-06',
    level: 'INFO',
    title: 'a {userid} that is not a plain integer (leading zeros, letters)',
    spec: '{userid} is an integer; what other paths answer is not shown.',
    statements: ['A-PATH-1'],
    axes: ['identity'],
  },
]);
