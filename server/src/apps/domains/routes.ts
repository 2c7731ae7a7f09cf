import type { ResourceGroup } from '../../http/groups.ts';
import { appResource } from '../routes.ts';
import { hostnameFromBody } from './model.ts';
import { renderDomain } from './render.ts';
import type { DomainStore } from './store.ts';

/** Domains: 201/200 answers carry the full domain (DELETE: as it was just removed). */
export function domainRoutes(store: DomainStore): ResourceGroup {
  return appResource('domain', renderDomain, (domains) => {
    domains.list((appId) => store.list(appId));
    domains.get((appId, id) => store.get(appId, id));
    domains.create((appId, body) => store.create(appId, hostnameFromBody(body)));
    domains.patch((appId, id, body) => store.update(appId, id, hostnameFromBody(body)));
    domains.del((appId, id) => store.remove(appId, id));
  });
}
