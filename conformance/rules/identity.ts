import { area } from './area.ts';

/** The rules checked by tests/identity.spec.ts: section Consequences along axes. */
export const IDENTITY = area('Consequences along axes', 'tests/identity.spec.ts', [
  {
    id: 'USR-ID-01',
    level: 'MUST',
    title: 'an id written with leading zeros or a plus sign is the same user, where accepted',
    spec: 'id is an integer and the key of the user: a writing of the same integer that the implementation accepts names the same user (PUT fails, POST and DELETE act on it, no second user).',
    statements: ['RES-USER-2', 'A-R3.3', 'A-PATH-1'],
    axes: ['identity'],
  },
]);
