#!/usr/bin/env node
// A hostile implementation: it answers every request with bytes that are not HTTP (an SSH banner), then
// closes the connection.
// Usage: node not-http.mjs --port PORT
import { serve } from './serve.mjs';

serve((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\nProtocol mismatch.\r\n'));
