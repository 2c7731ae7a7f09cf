import type { ResourceGroup } from '../../http/groups.ts';
import { appResource } from '../routes.ts';
import { newWorkerFromBody, sizeFromBody } from './model.ts';
import { ACCEPTED_BODY, renderWorker, renderWorkerList } from './render.ts';
import type { WorkerStore } from './store.ts';

/**
 * Workers: 201/200 answers carry the full worker; DELETE is asynchronous and answers 202 `{}`
 * (the worker is `stopping` at once and removed by a job after the grace period).
 */
export function workerRoutes(store: WorkerStore): ResourceGroup {
  return appResource('worker', (workers) => {
    workers.list(async (appId) => renderWorkerList(await store.list(appId)));
    workers.get(async (appId, id) => {
      const worker = await store.get(appId, id);
      return worker && renderWorker(worker);
    });
    workers.create((appId, body) => {
      const { command, size } = newWorkerFromBody(body);
      return store.create(appId, command, size);
    }, renderWorker);
    workers.patch(async (appId, id, body) => {
      const worker = await store.resize(appId, id, sizeFromBody(body));
      return worker && renderWorker(worker);
    });
    workers.del(202, async (appId, id) =>
      (await store.requestStop(appId, id)) === 'missing' ? undefined : ACCEPTED_BODY,
    );
  });
}
