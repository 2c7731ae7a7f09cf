import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Every socket the server accepted, until it closes. Node's closeAllConnections() only reaches the
 * connections its HTTP parser still owns; a socket handed off (an upgrade) or detached in some other
 * way would keep server.close() waiting for ever. Destroying these ends the drain whatever clients do.
 */
export function trackConnections(server: Server): { destroyAll(): void } {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    destroyAll() {
      for (const socket of sockets) socket.destroy();
    },
  };
}
