import type { ResourceGroup } from '../../http/groups.ts';
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
    workers.list((appId) => store.list(appId));
    workers.get((appId, id) => store.get(appId, id));
    workers.create((appId, body) => {
      const { command, size } = newWorkerFromBody(body);
      return store.create(appId, command, size);
    });
    workers.patch((appId, id, body) => store.resize(appId, id, sizeFromBody(body)));
    workers.delLater(async (appId, id) => (await store.requestStop(appId, id)) !== 'missing');
  });
}
