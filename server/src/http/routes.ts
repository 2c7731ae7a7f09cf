import type { RequestHandler, Server } from 'restify';

/**
 * Registers a read route for GET and HEAD alike: HEAD answers GET's status and headers without a body
 * (the sending helpers leave the body out), on every GET route of the service.
 */
export function routeRead(server: Server, path: string, handler: RequestHandler): void {
  server.get(path, handler);
  server.head(path, handler);
}
