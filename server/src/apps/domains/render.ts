import type { Domain } from './model.ts';

/** The visible fields of a domain, in a fixed order. */
export function renderDomain(domain: Domain): Domain {
  return {
    id: domain.id,
    hostname: domain.hostname,
    created_at: domain.created_at,
    updated_at: domain.updated_at,
  };
}
