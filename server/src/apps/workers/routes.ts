import type { Request, Response, Server } from 'restify';
import { NotFoundError } from '../../errors.ts';
import { routeRead } from '../../http/routes.ts';
import { sendJson } from '../../http/send.ts';
import { readJsonObject } from '../json.ts';
import { parseAppId, parseResourceId } from '../params.ts';
import { newWorkerFromBody, sizeFromBody } from './model.ts';
import { ACCEPTED_BODY, renderWorker, renderWorkerList } from './render.ts';
import type { WorkerStore } from './store.ts';

const COLLECTION = '/apps/:app_id/workers';
const ITEM = '/apps/:app_id/workers/:worker_id';

function target(req: Request): { appId: string; id: string } {
  return { appId: parseAppId(req.params.app_id), id: parseResourceId(req.params.worker_id, 'worker') };
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`no worker has the id ${id} in this app`);
}

/**
 * Workers: 201/200 answers carry the full worker; DELETE is asynchronous and answers 202 `{}`
 * (the worker is `stopping` at once and removed by a job after the grace period).
 */
export function registerWorkerRoutes(server: Server, store: WorkerStore): void {
  const list = async (req: Request, res: Response) => {
    const appId = parseAppId(req.params.app_id);
    sendJson(res, 200, renderWorkerList(await store.list(appId)));
  };
  const getOne = async (req: Request, res: Response) => {
    const { appId, id } = target(req);
    const worker = await store.get(appId, id);
    if (!worker) throw notFound(id);
    sendJson(res, 200, renderWorker(worker));
  };

  routeRead(server, COLLECTION, list);
  routeRead(server, ITEM, getOne);

  server.post(COLLECTION, async (req: Request, res: Response) => {
    const appId = parseAppId(req.params.app_id);
    const { command, size } = newWorkerFromBody(await readJsonObject(req));
    const worker = await store.create(appId, command, size);
    sendJson(res, 201, renderWorker(worker), { Location: `/apps/${appId}/workers/${worker.id}` });
  });

  server.patch(ITEM, async (req: Request, res: Response) => {
    const { appId, id } = target(req);
    const size = sizeFromBody(await readJsonObject(req));
    const worker = await store.resize(appId, id, size);
    if (!worker) throw notFound(id);
    sendJson(res, 200, renderWorker(worker));
  });

  server.del(ITEM, async (req: Request, res: Response) => {
    const { appId, id } = target(req);
    const outcome = await store.requestStop(appId, id);
    if (outcome === 'missing') throw notFound(id);
    sendJson(res, 202, ACCEPTED_BODY);
  });
}
