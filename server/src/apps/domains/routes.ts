import type { Request, Response, Server } from 'restify';
import { NotFoundError } from '../../errors.ts';
import { routeRead } from '../../http/routes.ts';
import { sendJson } from '../../http/send.ts';
import { readJsonObject } from '../json.ts';
import { parseAppId, parseResourceId } from '../params.ts';
import { hostnameFromBody } from './model.ts';
import { renderDomain, renderDomainList } from './render.ts';
import type { DomainStore } from './store.ts';

const COLLECTION = '/apps/:app_id/domains';
const ITEM = '/apps/:app_id/domains/:domain_id';

function target(req: Request): { appId: string; id: string } {
  return { appId: parseAppId(req.params.app_id), id: parseResourceId(req.params.domain_id, 'domain') };
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`no domain has the id ${id} in this app`);
}

/** Domains: 201/200 answers carry the full domain (DELETE: as it was just removed). */
export function registerDomainRoutes(server: Server, store: DomainStore): void {
  const list = async (req: Request, res: Response) => {
    const appId = parseAppId(req.params.app_id);
    sendJson(res, 200, renderDomainList(await store.list(appId)));
  };
  const getOne = async (req: Request, res: Response) => {
    const { appId, id } = target(req);
    const domain = await store.get(appId, id);
    if (!domain) throw notFound(id);
    sendJson(res, 200, renderDomain(domain));
  };

  routeRead(server, COLLECTION, list);
  routeRead(server, ITEM, getOne);

  server.post(COLLECTION, async (req: Request, res: Response) => {
    const appId = parseAppId(req.params.app_id);
    const hostname = hostnameFromBody(await readJsonObject(req));
    const domain = await store.create(appId, hostname);
    sendJson(res, 201, renderDomain(domain), { Location: `/apps/${appId}/domains/${domain.id}` });
  });

  server.patch(ITEM, async (req: Request, res: Response) => {
    const { appId, id } = target(req);
    const hostname = hostnameFromBody(await readJsonObject(req));
    const domain = await store.update(appId, id, hostname);
    if (!domain) throw notFound(id);
    sendJson(res, 200, renderDomain(domain));
  });

  server.del(ITEM, async (req: Request, res: Response) => {
    const { appId, id } = target(req);
    const domain = await store.remove(appId, id);
    if (!domain) throw notFound(id);
    sendJson(res, 200, renderDomain(domain));
  });
}
