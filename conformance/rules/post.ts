import { area } from './area.ts';

/** The rules checked by tests/post.spec.ts: section A.4 POST (update). */
export const POST = area('A.4 POST (update)', 'tests/post.spec.ts', [
  // --- POST
  {
    id: 'USR-POST-01',
    level: 'MUST',
    title: 'POST of an existing id answers the success result',
    spec: "POST updates. If a user with the form's id exists, ... the body is the success result.",
    statements: ['A-EP-4', 'A-R4.1', 'SVC-5', 'SVC-8'],
  },
  {
    id: 'USR-POST-02',
    level: 'MUST',
    title: 'POST replaces the user wholesale',
    spec: 'That user is replaced wholesale by the submitted id, name and profession.',
    statements: ['A-R4.1', 'SVC-1', 'SVC-2', 'STATE-1'],
    axes: ['exactness', 'freshness'],
  },
  {
    id: 'USR-POST-03',
    level: 'MUST',
    title: 'POST of an unknown id answers the failure result',
    spec: 'If none exists, ... the body is the failure result.',
    statements: ['A-R4.2', 'ERR-1', 'SVC-8'],
  },
  {
    id: 'USR-POST-04',
    level: 'MUST',
    title: 'POST of an unknown id changes nothing (creates no user)',
    spec: 'If none exists, nothing changes.',
    statements: ['A-R4.2'],
  },
  {
    id: 'USR-POST-05',
    level: 'MUST',
    title: 'POST of an existing id with the values it already has answers the success result',
    spec: 'POST with the id of an existing user replaces that user ... and the answer is the success result (a replacement by the same values is still one: not a count of the users changed).',
    statements: ['A-R4.1'],
  },
]);
