import type { Request, Response, Server } from 'restify';
import type { Representation } from '../errors.ts';

type Handler = (req: Request, res: Response) => Promise<unknown>;
type Method = 'GET' | 'HEAD' | 'PUT' | 'POST' | 'PATCH' | 'DELETE' | 'OPTIONS';

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
  routes(group: GroupRoutes): void;
}

/** What a group registers its routes with: paths relative to its prefix. */
export class GroupRoutes {
  /** The methods registered on each full path, in order (what OPTIONS answers in `Allow`). */
  private readonly methods = new Map<string, Method[]>();

  constructor(
    private readonly server: Server,
    private readonly prefix: string,
    /** Told each full path registered (the representation of the errors its handlers raise). */
    private readonly registered: (fullPath: string) => void,
  ) {}

  /** GET and HEAD alike: HEAD answers GET's status and headers without a body (the sending helpers leave it out). */
  read(path: string, handler: Handler): void {
    this.add('GET', path, handler);
    this.add('HEAD', path, handler);
  }
  put(path: string, handler: Handler): void {
    this.add('PUT', path, handler);
  }
  post(path: string, handler: Handler): void {
    this.add('POST', path, handler);
  }
  patch(path: string, handler: Handler): void {
    this.add('PATCH', path, handler);
  }
  del(path: string, handler: Handler): void {
    this.add('DELETE', path, handler);
  }
  opts(path: string, handler: Handler): void {
    this.add('OPTIONS', path, handler);
  }

  /** The `Allow` value of a path: the methods registered on it so far, in the order they were. */
  allow(path: string): string {
    return (this.methods.get(this.prefix + path) ?? []).join(', ');
  }

  private add(method: Method, path: string, handler: Handler): void {
    const full = this.prefix + path;
    const known = this.methods.get(full);
    if (known) known.push(method);
    else this.methods.set(full, [method]);
    this.registered(full);
    const server = this.server;
    const register = {
      GET: server.get,
      HEAD: server.head,
      PUT: server.put,
      POST: server.post,
      PATCH: server.patch,
      DELETE: server.del,
      OPTIONS: server.opts,
    }[method];
    register.call(server, full, handler);
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
    group.routes(new GroupRoutes(server, group.prefix, (full) => claim(byRoute, full, group.representation)));
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
      const route = req.getRoute() as { path?: unknown } | undefined;
      return (typeof route?.path === 'string' && byRoute.get(route.path)) || ofPath(req.getPath());
    },
  };
}
