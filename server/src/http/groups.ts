import type { Request, Response, Server } from 'restify';
import type { Representation } from '../errors.ts';
import type { Json, RouteDescription, RouteDoc } from '../openapi/describe.ts';
import { registerRoute, routePathOf } from './restify.ts';

type Handler = (req: Request, res: Response) => Promise<unknown>;
export type Method = 'GET' | 'HEAD' | 'PUT' | 'POST' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** A route as declared: method, full path (restify's form), handler and description. */
interface DeclaredRoute {
  method: Method;
  path: string;
  handler: Handler;
  doc: RouteDescription;
}

/** A route as the OpenAPI description sees it (document.ts): its group's facts and its own description. */
export interface DescribedRoute {
  method: Method;
  /** restify's form: `/apps/:app_id/domains`. */
  path: string;
  representation: Representation;
  /** The OpenAPI parameter of each `:name` in the path. */
  parameters: Readonly<Record<string, Json>>;
  doc: RouteDoc;
}

/**
 * A resource group (after fastify's `register(plugin, { prefix })`): the routes of one resource, mounted
 * under its prefix, answering errors in its own representation. Every group of the service is mounted
 * the same way, by `mountGroups`.
 */
export interface ResourceGroup {
  /** Where its routes live ('' for routes at the root, such as /healthz). */
  prefix: string;
  /** Its error bodies; also the one of an unmatched request under the prefix (404, 405, refused before routing). */
  representation: Representation;
  /** The OpenAPI description of each path parameter (`:name`) of its routes, by name. */
  parameters?: Readonly<Record<string, Json>>;
  routes(group: GroupRoutes): void;
}

/** What a group registers its routes with: paths relative to its prefix. */
export class GroupRoutes {
  /** The methods registered on each full path, in order (what OPTIONS answers in `Allow`). */
  private readonly methods = new Map<string, Method[]>();

  constructor(
    private readonly prefix: string,
    /** Told each route declared (mounted on restify, or described). */
    private readonly declared: (route: DeclaredRoute) => void,
  ) {}

  /**
   * GET and HEAD alike: HEAD answers GET's status and headers without a body (the sending helpers leave
   * it out); the description is GET's (document.ts derives HEAD's).
   */
  read(path: string, handler: Handler, doc: RouteDescription): void {
    this.add('GET', path, handler, doc);
    this.add('HEAD', path, handler, doc);
  }
  put(path: string, handler: Handler, doc: RouteDescription): void {
    this.add('PUT', path, handler, doc);
  }
  post(path: string, handler: Handler, doc: RouteDescription): void {
    this.add('POST', path, handler, doc);
  }
  patch(path: string, handler: Handler, doc: RouteDescription): void {
    this.add('PATCH', path, handler, doc);
  }
  del(path: string, handler: Handler, doc: RouteDescription): void {
    this.add('DELETE', path, handler, doc);
  }
  opts(path: string, handler: Handler, doc: RouteDescription): void {
    this.add('OPTIONS', path, handler, doc);
  }

  /** The `Allow` value of a path: the methods registered on it so far, in the order they were. */
  allow(path: string): string {
    return (this.methods.get(this.prefix + path) ?? []).join(', ');
  }

  private add(method: Method, path: string, handler: Handler, doc: RouteDescription): void {
    const full = this.prefix + path;
    const known = this.methods.get(full);
    if (known) known.push(method);
    else this.methods.set(full, [method]);
    this.declared({ method, path: full, handler, doc });
  }
}

/**
 * Which error body a request gets, from the registered groups alone: the group of the route that took
 * it; else (refused before routing, 404, 405) the group with the longest prefix the path is under (the
 * path itself or below it, as whole segments); else the root groups' ('' prefix).
 */
export interface ErrorRepresentations {
  ofPath(path: string): Representation;
  ofRequest(req: Request): Representation;
}

/** Mounts every group in order; groups of one prefix, and of one route path, must agree on their representation. */
export function mountGroups(server: Server, groups: readonly ResourceGroup[]): ErrorRepresentations {
  const byPrefix = new Map<string, Representation>();
  const byRoute = new Map<string, Representation>();
  const claim = (table: Map<string, Representation>, key: string, representation: Representation) => {
    const known = table.get(key);
    if (known && known !== representation) {
      throw new Error(`two resource groups answer "${key}" with different error representations`);
    }
    table.set(key, representation);
  };
  for (const group of groups) {
    claim(byPrefix, group.prefix, group.representation);
    group.routes(
      new GroupRoutes(group.prefix, (route) => {
        claim(byRoute, route.path, group.representation);
        registerRoute(server, route.method, route.path, route.handler);
      }),
    );
  }
  const root = byPrefix.get('');
  if (!root)
    throw new Error('no resource group is mounted at the root: other paths would have no error body');
  const prefixes = [...byPrefix.keys()].filter((prefix) => prefix !== '').sort((a, b) => b.length - a.length);
  const ofPath = (path: string): Representation => {
    for (const prefix of prefixes) {
      if (path === prefix || (path.startsWith(prefix) && path[prefix.length] === '/')) {
        return byPrefix.get(prefix) as Representation;
      }
    }
    return root;
  };
  return {
    ofPath,
    ofRequest(req) {
      const route = routePathOf(req);
      return (route !== undefined && byRoute.get(route)) || ofPath(req.getPath());
    },
  };
}

/**
 * The routes of `groups` with their descriptions, as `mountGroups` mounts them (same order), without
 * mounting anything: what /openapi.json is built from. Each OPTIONS description gets its path's Allow.
 */
export function describeGroups(groups: readonly ResourceGroup[]): DescribedRoute[] {
  const routes: DescribedRoute[] = [];
  for (const group of groups) {
    const declared: DeclaredRoute[] = [];
    const recorder = new GroupRoutes(group.prefix, (route) => declared.push(route));
    group.routes(recorder);
    for (const { method, path, doc } of declared) {
      const allow = recorder.allow(path.slice(group.prefix.length));
      routes.push({
        method,
        path,
        representation: group.representation,
        parameters: group.parameters ?? {},
        doc: typeof doc === 'function' ? doc({ allow }) : doc,
      });
    }
  }
  return routes;
}
