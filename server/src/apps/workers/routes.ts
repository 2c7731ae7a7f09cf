import type { ResourceGroup } from '../../http/groups.ts';
import { jsonBody } from '../../openapi/describe.ts';
import { appResource } from '../routes.ts';
import { newWorkerFromBody, sizeFromBody } from './model.ts';
import { renderWorker } from './render.ts';
import type { WorkerStore } from './store.ts';

/**
 * Workers: 201/200 answers carry the full worker; DELETE is asynchronous and answers 202 `{}`
 * (the worker is `stopping` at once and removed by a job after the grace period).
 */
export function workerRoutes(store: WorkerStore): ResourceGroup {
  return appResource('worker', renderWorker, (workers) => {
    workers.list((appId) => store.list(appId), { operationId: 'listWorkers', summary: "The app's workers" });
    workers.get((appId, id) => store.get(appId, id), { operationId: 'getWorker', summary: 'One worker' });
    workers.create(
      (appId, body) => {
        const { command, size } = newWorkerFromBody(body);
        return store.create(appId, command, size);
      },
      { operationId: 'createWorker', summary: 'Start a worker', requestBody: jsonBody('NewWorker') },
    );
    workers.patch((appId, id, body) => store.resize(appId, id, sizeFromBody(body)), {
      operationId: 'resizeWorker',
      summary: 'Resize a worker',
      requestBody: jsonBody('WorkerResize'),
      changed: 'Resized: the full worker.',
      errors: { conflict: 'The worker is stopping and can no longer be changed.' },
    });
    workers.delLater(async (appId, id) => (await store.requestStop(appId, id)) !== 'missing', {
      operationId: 'stopWorker',
      summary: 'Stop a worker (asynchronous)',
      description: 'The worker is `stopping` at once and removed by a job after WORKER_STOP_GRACE_MS.',
    });
  });
}
