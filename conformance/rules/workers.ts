import { area } from './area.ts';

/** The rules checked by tests/workers.spec.ts: section B. Workers (JSON, asynchronous). */
export const WORKERS = area('B. Workers (JSON, asynchronous)', 'tests/workers.spec.ts', [
  // --- B. Workers
  {
    id: 'APP-WRK-01',
    level: 'MUST',
    title: 'creating a worker (200/201) answers the full worker',
    spec: 'A 200 OK or 201 answer to a change carries the full resource with all its visible fields.',
    statements: ['B-2'],
  },
  {
    id: 'APP-WRK-02',
    level: 'MUST',
    title: 'DELETE of a worker answers 202',
    spec: 'DELETE /apps/{app_id}/workers/{worker_id}: 202 with {}.',
    statements: ['B-5'],
  },
  {
    id: 'APP-WRK-03',
    level: 'MUST',
    title: 'the 202 body is exactly {}',
    spec: '202 Accepted: an empty JSON object {}; the resource is not returned.',
    statements: ['B-3', 'B-5', 'SVC-12'],
  },
  {
    id: 'APP-WRK-04',
    level: 'MUST',
    title: 'the worker is gone after the accepted DELETE (bounded wait)',
    spec: 'A DELETE accepted with 202 is carried out asynchronously: the worker is removed.',
    statements: ['B-6'],
  },
  {
    id: 'APP-WRK-05',
    level: 'INFO',
    title: 'worker fields and state while stopping',
    spec: 'Fields of the worker resource: not shown.',
    statements: ['RES-WRK-1'],
  },
]);
