import { area } from './area.ts';

/** The rules checked by tests/collection.spec.ts: section A. Collection and default user. */
export const COLLECTION = area('A. Collection and default user', 'tests/collection.spec.ts', [
  // --- Collection
  {
    id: 'USR-COL-01',
    level: 'MUST',
    title: 'a fresh service lists exactly the default user, id 1',
    spec: 'GET list: on first use of an empty service it returns one user, the default one with id 1.',
    statements: ['A-R1.2', 'SVC-10'],
    needs: 'fresh',
  },
  {
    id: 'USR-COL-02',
    level: 'MUST',
    title: 'a first read by id on a fresh service serves the default user',
    spec: 'When the first read finds no collection, the service creates one holding a single default user with id 1 and then serves it.',
    statements: ['SVC-10'],
    needs: 'fresh',
  },
  {
    id: 'USR-COL-03',
    level: 'MUST',
    title: 'the collection persists between requests',
    spec: 'The collection persists between requests.',
    statements: ['SVC-9'],
  },
  {
    id: 'USR-COL-04',
    level: 'SHOULD',
    title: 'the collection survives a restart of the service',
    spec: 'The collection persists between requests (across a stop and start of the service).',
    statements: ['SVC-9'],
    needs: 'restart',
  },
  {
    id: 'USR-COL-05',
    level: 'INFO',
    title: 'fields of the default user',
    spec: 'The default user has id 1; its name and profession are not shown.',
    statements: ['SVC-10'],
    needs: 'fresh',
  },
  {
    id: 'USR-COL-06',
    level: 'MUST',
    title: 'a collection emptied by deletes stays empty: the default user does not come back',
    spec: 'The default user is created when a read finds no collection; an existing collection that has become empty is still a collection.',
    statements: ['SVC-11', 'SVC-3'],
    needs: 'fresh',
  },
  {
    id: 'USR-COL-07',
    level: 'INFO',
    title: 'a write as the first request of a fresh service: is the default user there afterwards?',
    spec: 'Whether a write creates the collection (and with it the default user) is not stated.',
    statements: ['SVC-10'],
    needs: 'fresh',
  },
  {
    id: 'USR-COL-08',
    level: 'SHOULD',
    title: 'a collection emptied by deletes is still empty after a restart',
    spec: 'The collection persists (across a stop and start of the service), including its being empty.',
    statements: ['SVC-11', 'SVC-9'],
    needs: 'restart',
  },
]);
