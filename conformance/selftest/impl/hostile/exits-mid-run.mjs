#!/usr/bin/env node
// A hostile implementation: the self-test's correct implementation (../server.mjs), which exits with
// code 3 on its 40th request, in the middle of the suite's run (each instance the suite starts does).
// Usage: node exits-mid-run.mjs --port PORT [--data DIR]
import fs from 'node:fs';
import http from 'node:http';

if (process.env.HOSTILE_PID_FILE) fs.appendFileSync(process.env.HOSTILE_PID_FILE, `${process.pid}\n`);
let requests = 0;
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function count(event, ...args) {
  if (event === 'request' && ++requests >= 40) process.exit(3);
  return emit.call(this, event, ...args);
};
await import('../server.mjs');
