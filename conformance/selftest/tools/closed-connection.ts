/**
 * For selftest/transport.test.ts: a server that closes the first connection as soon as a request
 * arrives on it (an idle keep-alive connection closed just as a request went out on it) and answers on
 * every later one; a GET and a PUT sent to it through the suite's Api. Prints what each got as JSON.
 */
import net from 'node:net';
import { request } from '@playwright/test';
import { Api } from '../../support/http.ts';

async function closesFirstConnection() {
  let connections = 0;
  const server = net.createServer((socket) => {
    const first = ++connections === 1;
    socket.once('data', () => {
      if (first) socket.destroy();
      else
        socket.end(
          'HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: 8\r\nConnection: close\r\n\r\n<a>1</a>',
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const context = await request.newContext();
const get = await closesFirstConnection();
const reply = await new Api(context, get.url).send('GET', '/UserService/users');
await get.stop();
const put = await closesFirstConnection();
let error = '';
try {
  await new Api(context, put.url).send('PUT', '/UserService/users', { data: 'id=1' });
} catch (err) {
  error = (err as Error).message;
}
await put.stop();
await context.dispose();
console.log(
  JSON.stringify({
    get: { status: reply.status, text: reply.text, connections: get.connections() },
    put: { error, connections: put.connections() },
  }),
);
