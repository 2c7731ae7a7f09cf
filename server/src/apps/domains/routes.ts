import type { ResourceGroup } from '../../http/groups.ts';
import { jsonBody } from '../../openapi/describe.ts';
import { appResource } from '../routes.ts';
import { hostnameFromBody } from './model.ts';
import { renderDomain } from './render.ts';
import type { DomainStore } from './store.ts';

/** Domains: 201/200 answers carry the full domain (DELETE: as it was just removed). */
export function domainRoutes(store: DomainStore): ResourceGroup {
  const hostnameTaken = { conflict: 'The hostname is used by another domain of the app.' };
  return appResource('domain', renderDomain, (domains) => {
    domains.list((appId) => store.list(appId), { operationId: 'listDomains', summary: "The app's domains" });
    domains.get((appId, id) => store.get(appId, id), { operationId: 'getDomain', summary: 'One domain' });
    domains.create((appId, body) => store.create(appId, hostnameFromBody(body)), {
      operationId: 'createDomain',
      summary: 'Create a domain',
      requestBody: jsonBody('DomainChange'),
      errors: hostnameTaken,
    });
    domains.patch((appId, id, body) => store.update(appId, id, hostnameFromBody(body)), {
      operationId: 'changeDomain',
      summary: "Change a domain's hostname",
      requestBody: jsonBody('DomainChange'),
      changed: 'Changed: the full domain.',
      errors: hostnameTaken,
    });
    domains.del((appId, id) => store.remove(appId, id), {
      operationId: 'deleteDomain',
      summary: 'Delete a domain',
    });
  });
}
