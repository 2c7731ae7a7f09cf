// What the hostile implementations share: the options (--port), a record of their pid (appended to the
// file HOSTILE_PID_FILE names, so that the self-test can check none is left running), and a server that
// answers the suite's readiness probe as HTTP should (so that the suite starts them) and hands every
// other request, as raw bytes on its socket, to the misbehaviour of the implementation.
import fs from 'node:fs';
import net from 'node:net';

export function port() {
  const at = process.argv.indexOf('--port');
  return Number(at > 0 ? process.argv[at + 1] : process.env.PORT || 8080);
}

/** `misbehave(socket, requestLine)` gets every request but the readiness probe, once its head is read. */
export function serve(misbehave) {
  if (process.env.HOSTILE_PID_FILE) fs.appendFileSync(process.env.HOSTILE_PID_FILE, `${process.pid}\n`);
  const server = net.createServer((socket) => {
    let head = '';
    socket.on('error', () => {});
    socket.on('data', function read(chunk) {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', read);
      const requestLine = head.slice(0, head.indexOf('\r\n'));
      if (requestLine.includes('/conformance-readiness-probe '))
        socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      else misbehave(socket, requestLine);
    });
  });
  server.listen(port(), '127.0.0.1');
  process.on('SIGTERM', () => process.exit(0));
  return server;
}
