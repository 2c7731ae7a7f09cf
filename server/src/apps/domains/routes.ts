import type { ResourceGroup } from '../../http/groups.ts';
import { appResource } from '../routes.ts';
import { hostnameFromBody } from './model.ts';
import { renderDomain, renderDomainList } from './render.ts';
import type { DomainStore } from './store.ts';

/** Domains: 201/200 answers carry the full domain (DELETE: as it was just removed). */
export function domainRoutes(store: DomainStore): ResourceGroup {
  return appResource('domain', (domains) => {
    domains.list(async (appId) => renderDomainList(await store.list(appId)));
    domains.get(async (appId, id) => {
      const domain = await store.get(appId, id);
      return domain && renderDomain(domain);
    });
    domains.create((appId, body) => store.create(appId, hostnameFromBody(body)), renderDomain);
    domains.patch(async (appId, id, body) => {
      const domain = await store.update(appId, id, hostnameFromBody(body));
      return domain && renderDomain(domain);
    });
    domains.del(200, async (appId, id) => {
      const domain = await store.remove(appId, id);
      return domain && renderDomain(domain);
    });
  });
}
