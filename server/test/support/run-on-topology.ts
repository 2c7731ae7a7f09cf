/**
 * Runs a command against the server on a Redis topology:
 *   tsx server/test/support/run-on-topology.ts sentinel|cluster -- <command…>
 * starts the topology (topologies.ts) and the built server on it (`node dist/server/src/main.js`, a free
 * port), runs the command with CONFORMANCE_BASE_URL set to the server, then stops both and exits with
 * the command's status. `make test-topologies` runs the conformance suite this way.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../testing/free-port.ts';
import { waitForStatus } from '../../../testing/http.ts';
import { startTopology, type TopologyKind } from './topologies.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const [kind, separator, ...command] = process.argv.slice(2);
if ((kind !== 'sentinel' && kind !== 'cluster') || separator !== '--' || command.length === 0) {
  console.error('usage: run-on-topology.ts sentinel|cluster -- <command…>');
  process.exit(2);
}

const topology = await startTopology(kind as TopologyKind);
const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'usersvc-topology-server-'));
const server = spawn(process.execPath, [path.join(ROOT, 'dist/server/src/main.js')], {
  cwd: ROOT,
  env: { ...process.env, ...topology.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
let status = 1;
try {
  const url = `http://127.0.0.1:${port}`;
  await waitForStatus(`${url}/readyz`, 200, 30_000);
  console.log(`server on the ${kind} topology (${Object.values(topology.env).join(' ')}) at ${url}`);
  const [program = '', ...args] = command;
  const child = spawn(program, args, {
    cwd: ROOT,
    env: { ...process.env, CONFORMANCE_BASE_URL: url },
    stdio: 'inherit',
  });
  const [code] = await once(child, 'exit');
  status = typeof code === 'number' ? code : 1;
} finally {
  const exited = once(server, 'exit');
  server.kill('SIGTERM');
  await exited;
  await topology.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(status);
