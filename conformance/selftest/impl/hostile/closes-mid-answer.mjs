#!/usr/bin/env node
// A hostile implementation: it starts a well-formed answer (status, headers announcing 200 bytes, the
// first 20 of them) and closes the connection in the middle of the body.
// Usage: node closes-mid-answer.mjs --port PORT
import { serve } from './serve.mjs';

serve((socket) => {
  socket.write(
    'HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: 200\r\n\r\n<userList><user><id>',
  );
  setTimeout(() => socket.destroy(), 50);
});
