/**
 * The formats and constants the rules (support/) and the explorer (explore/) share for section B, in one
 * place: the paths of domains and workers, the id a create's answer carries, and the formats of RES-DOM-1
 * (a UUID, ISO 8601 date-times in UTC). How often a worker being removed is read, and for how long, is
 * I/O: support/removal.ts.
 */
import type { Observed } from './observe.ts';

/** RES-DOM-1: a domain's id is a UUID. */
export const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** RES-DOM-1: ISO 8601 date-time in UTC: `Z` or a zero offset. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]00:?00)$/;

/** The path of a domain or worker (`id`), or of an app's collection of them. */
export function appPath(app: string, kind: 'domains' | 'workers', id?: string): string {
  const collection = `/apps/${encodeURIComponent(app)}/${kind}`;
  return id === undefined ? collection : `${collection}/${encodeURIComponent(id)}`;
}

/**
 * The id a create's answer carries, as the model reads the answer (observe: a JSON object with a string
 * or number `id`), as it was written (a string or a number); undefined when it carries none.
 */
export function createdIdValue(seen: Observed): string | number | undefined {
  const v = seen.body.kind === 'json' ? seen.body.value : undefined;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const id = (v as Record<string, unknown>).id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** The id a create's answer carries (createdIdValue) as text: what the model's `adopt` learns. */
export function createdId(seen: Observed): string | undefined {
  const id = createdIdValue(seen);
  return id === undefined ? undefined : String(id);
}
