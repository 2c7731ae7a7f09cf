import { area } from './area.ts';

/** The rules checked by tests/domains.spec.ts: section B. Domains (JSON). */
export const DOMAINS = area('B. Domains (JSON)', 'tests/domains.spec.ts', [
  // --- B. Domains
  {
    id: 'APP-DOM-01',
    level: 'MUST',
    title: 'creating a domain (200/201) answers the full domain',
    spec: 'A 200 OK or 201 answer to a change carries the full resource with all its visible fields (id, hostname, created_at, updated_at).',
    statements: ['B-2', 'RES-DOM-1', 'SVC-12'],
  },
  {
    id: 'APP-DOM-02',
    level: 'MUST',
    title: 'domain id is a UUID, timestamps are ISO 8601 UTC',
    spec: 'domain: id string UUID; created_at, updated_at ISO 8601 UTC timestamps.',
    statements: ['RES-DOM-1'],
  },
  {
    id: 'APP-DOM-03',
    level: 'MUST',
    title: 'PATCH of a domain answered 200/201 carries the full, updated domain',
    spec: 'Applies to operations that change a resource, including PUT, PATCH and DELETE: 200 or 201 carries the full resource.',
    statements: ['B-1', 'B-2'],
  },
  {
    id: 'APP-DOM-04',
    level: 'MUST',
    title: 'DELETE of a domain answers 200 with the domain as it was',
    spec: 'DELETE /apps/{app_id}/domains/{domain_id}: 200 with a domain object (for DELETE, the resource as it was just removed).',
    statements: ['B-2', 'B-4'],
  },
  {
    id: 'APP-DOM-05',
    level: 'MUST',
    title: 'a deleted domain is no longer served',
    spec: 'For DELETE, the resource as it was just removed: a later GET does not find it. (A SHOULD until issue 15: the removal is stated, so a failure now fails the run.)',
    statements: ['B-6'],
  },
  {
    id: 'APP-JSON-01',
    level: 'MUST',
    title: 'JSON change answers are application/json with charset=utf-8',
    spec: 'Content type is application/json;charset=utf-8.',
    statements: ['B-1'],
  },
  {
    id: 'APP-JSON-02',
    level: 'INFO',
    title: 'exact Content-Type string of JSON answers',
    spec: 'Spelling of the Content-Type (spaces, case): compared as media type and charset.',
    statements: ['B-1'],
  },
]);
