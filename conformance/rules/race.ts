import { area } from './area.ts';

/** The rules checked by tests/race.spec.ts: section Consequences along axes. */
export const RACE = area('Consequences along axes', 'tests/race.spec.ts', [
  // --- Consequences of the MUST statements along the axes of docs/coverage.md (AXES below)
  {
    id: 'USR-RACE-01',
    level: 'MUST',
    title: 'concurrent DELETEs of one user: exactly one success, the user gone',
    spec: 'DELETE removes the user and answers success; DELETE of an id no user has answers failure: of DELETEs racing for one user, exactly one removes it.',
    statements: ['A-R5.1', 'A-R5.2'],
    axes: ['concurrency'],
  },
  {
    id: 'USR-RACE-02',
    level: 'MUST',
    title: 'concurrent POSTs of one user: all succeed, the stored user is one of them whole',
    spec: 'POST replaces the user as a whole: of POSTs racing for one user, the one stored last is stored with its own name and profession, nothing mixed.',
    statements: ['A-R4.1', 'RES-USER-2'],
    axes: ['concurrency', 'exactness'],
  },
  {
    id: 'USR-RACE-03',
    level: 'MUST',
    title: 'a PUT and a DELETE of a new id raced: the state agrees with the answers',
    spec: 'PUT of a new id succeeds; a DELETE succeeds only when it removes the user: the user is absent exactly when the DELETE answered success.',
    statements: ['A-R3.2', 'A-R5.1', 'A-R5.2'],
    axes: ['concurrency', 'freshness'],
  },
  {
    id: 'USR-RACE-04',
    level: 'MUST',
    title: 'a PUT and a POST of a new id raced: the state agrees with the answers',
    spec: "PUT of a new id succeeds; POST succeeds only on an existing user and then replaces it: the stored user is the POST's exactly when the POST answered success.",
    statements: ['A-R3.2', 'A-R4.1', 'A-R4.2'],
    axes: ['concurrency', 'freshness'],
  },
  {
    id: 'APP-RACE-01',
    level: 'MUST',
    title: 'concurrent DELETEs of one domain: exactly one answers 200 with the domain',
    spec: 'DELETE of a domain answers 200 with the domain as it was when it was removed: a domain is removed once, so only one of racing DELETEs can answer so.',
    statements: ['B-4', 'B-6'],
    axes: ['concurrency'],
  },
  {
    id: 'APP-RACE-02',
    level: 'MUST',
    title: 'concurrent DELETEs of one domain: every 2xx carries the body of its status, the domain gone',
    spec: 'A change answered 200 or 201 carries the whole resource (for a DELETE, as it was when removed), one answered 202 carries {}: so does every DELETE of racing ones, whichever status it gets; and the domain a DELETE answered 200 for is no longer served.',
    statements: ['B-2', 'B-3', 'B-6'],
    axes: ['concurrency'],
  },
  {
    id: 'APP-RACE-03',
    level: 'MUST',
    title:
      'a DELETE and a PATCH of one domain raced: 200/201 answers carry the full domain, the state agrees',
    spec: 'A change answered 200 or 201 carries the whole resource: a PATCH and a DELETE of one domain raced each answer a full domain, or {} with 202, or no resource at all; the domain a DELETE answered 200 for is gone unless a PATCH answered a change.',
    statements: ['B-2', 'B-3', 'B-6'],
    axes: ['concurrency'],
  },
  {
    id: 'APP-RACE-04',
    level: 'MUST',
    title: 'concurrent DELETEs of one worker: every 2xx is 202 with {}, the worker eventually gone',
    spec: 'DELETE of a worker answers 202 with {}, not the resource: so does every DELETE of racing ones that is accepted; the accepted removal is carried out.',
    statements: ['B-3', 'B-5', 'B-6'],
    axes: ['concurrency'],
  },
]);
