#!/usr/bin/env node
// A hostile implementation: it answers 200 with an XML Content-Type and a chunked body that never
// ends (a chunk every 100 ms, for as long as the connection stays open).
// Usage: node endless-body.mjs --port PORT
import { serve } from './serve.mjs';

serve((socket) => {
  socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nTransfer-Encoding: chunked\r\n\r\n');
  const chunk = '<!-- more -->';
  const timer = setInterval(() => socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`), 100);
  socket.on('close', () => clearInterval(timer));
});
