import type { Request, RequestHandler, Response, Server } from 'restify';
import type { Representation } from '../errors.ts';

type Handler = (req: Request, res: Response) => Promise<unknown>;

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

const REPRESENTATION = Symbol('representation');
type StampedRequest = Request & { [REPRESENTATION]?: Representation };

/** The representation of the group whose route took the request, if a route did. */
export function routedRepresentation(req: Request): Representation | undefined {
  return (req as StampedRequest)[REPRESENTATION];
}

/** What a group registers its routes with: paths relative to its prefix. */
export class GroupRoutes {
  /** The methods registered on each full path, in order (what OPTIONS answers in `Allow`). */
  private readonly methods = new Map<string, string[]>();

  constructor(
    private readonly server: Server,
    private readonly group: ResourceGroup,
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
    return (this.methods.get(this.group.prefix + path) ?? []).join(', ');
  }

  private add(method: string, path: string, handler: Handler): void {
    const full = this.group.prefix + path;
    const known = this.methods.get(full);
    if (known) known.push(method);
    else this.methods.set(full, [method]);
    const { representation } = this.group;
    // Errors the handler raises are answered in the group's representation (see app.ts, 'restifyError').
    const stamped: RequestHandler = async (req: Request, res) => {
      (req as StampedRequest)[REPRESENTATION] = representation;
      return handler(req, res);
    };
    const register = {
      GET: this.server.get,
      HEAD: this.server.head,
      PUT: this.server.put,
      POST: this.server.post,
      PATCH: this.server.patch,
      DELETE: this.server.del,
      OPTIONS: this.server.opts,
    }[method as 'GET'];
    register.call(this.server, full, stamped);
  }
}

/**
 * Mounts every group and returns where the representation of a request no route took comes from: the
 * group with the longest prefix the path is under (the path itself or below it, as a whole segment);
 * the root groups ('' prefix) answer for every other path. Two groups of one prefix must agree.
 */
export function mountGroups(
  server: Server,
  groups: readonly ResourceGroup[],
): (path: string) => Representation {
  const table = new Map<string, Representation>();
  for (const group of groups) {
    const known = table.get(group.prefix);
    if (known && known !== group.representation) {
      throw new Error(`the groups under "${group.prefix}" disagree on their error representation`);
    }
    table.set(group.prefix, group.representation);
    group.routes(new GroupRoutes(server, group));
  }
  const root = table.get('');
  if (!root)
    throw new Error('no group is mounted at the root: unclaimed paths would have no error representation');
  const prefixes = [...table.keys()].filter((prefix) => prefix !== '').sort((a, b) => b.length - a.length);
  return (path) => {
    for (const prefix of prefixes) {
      if (path === prefix || (path.startsWith(prefix) && path[prefix.length] === '/')) {
        return table.get(prefix) as Representation;
      }
    }
    return root;
  };
}
