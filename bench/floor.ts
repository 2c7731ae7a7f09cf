/**
 * `make bench-floor`: what restify itself costs per request. The same handler (a fixed `<user>`
 * document, written with one writeHead and end, after one await as an async route would) served by
 * a bare restify route and by bare node:http, no Redis and no logging, alternating rounds. The gap
 * between the two is the floor under the gap between the reference server and the baseline.
 *
 * Env: BENCH_DURATION (s per run, default 2), BENCH_ROUNDS (12), BENCH_CONNECTIONS (32).
 */
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import restify from 'restify';
import { freePort } from '../scripts/lib/free-port.ts';
import { CONNECTIONS, DURATION, ROUNDS } from './options.ts';
import { killAllChildren, startNode, withCpuPerRequest } from './procs.ts';
import { median } from './stats.ts';

const BODY =
  '<?xml version="1.0" encoding="UTF-8"?><user><id>1</id><name>Mahesh</name><profession>Teacher</profession></user>';
const ROUTE = '/UserService/users/:userid';

async function answer(_req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  await null;
  res.writeHead(200, {
    'Content-Type': 'application/xml;charset=utf-8',
    'Content-Length': Buffer.byteLength(BODY),
  });
  res.end(BODY);
}

function serve(kind: string, port: number): void {
  if (kind === 'http') {
    http.createServer(answer).listen(port, '127.0.0.1');
    return;
  }
  // The options the reference server uses (server/src/app.ts).
  const server = restify.createServer({
    name: '',
    ignoreTrailingSlash: true,
    strictNext: true,
    handleUncaughtExceptions: false,
  });
  server.get(ROUTE, async (req: restify.Request, res: restify.Response) => {
    (res as restify.Response & { _sent: boolean })._sent = true;
    await answer(req, res);
  });
  server.listen(port, '127.0.0.1');
}

async function compare(): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  const kinds = ['restify', 'http'] as const;
  const figures: Record<(typeof kinds)[number], Array<{ rps: number; us: number }>> = {
    restify: [],
    http: [],
  };
  try {
    const nodes = {
      restify: await startNode('restify', self, await freePort(), { FLOOR_SERVE: 'restify' }),
      http: await startNode('http', self, await freePort(), { FLOOR_SERVE: 'http' }),
    };
    for (let round = -1; round < ROUNDS; round++) {
      for (const kind of kinds) {
        const node = nodes[kind];
        const { result, cpuUsPerReq } = await withCpuPerRequest(node.pid, () =>
          autocannon({
            url: `${node.url}/UserService/users/1`,
            connections: CONNECTIONS,
            duration: DURATION,
          }),
        );
        if (round >= 0) figures[kind].push({ rps: result.requests.average, us: cpuUsPerReq }); // round -1 warms up
      }
    }
    for (const kind of kinds) await nodes[kind].stop();
  } finally {
    killAllChildren();
  }
  const ratio = median(figures.restify.map((f, i) => f.rps / (figures.http[i]?.rps ?? Number.NaN)));
  console.log(`| server | req/s | CPU µs/req |\n|---|---:|---:|`);
  for (const kind of kinds) {
    const rps = Math.round(median(figures[kind].map((f) => f.rps))).toLocaleString('en');
    console.log(
      `| bare ${kind === 'http' ? 'node:http' : 'restify'} | ${rps} | ${median(figures[kind].map((f) => f.us)).toFixed(1)} |`,
    );
  }
  console.log(
    `restify / node:http req/s: ${ratio.toFixed(2)} (median of ${ROUNDS} rounds of ${DURATION} s, ${CONNECTIONS} connections)`,
  );
}

const serving = process.env.FLOOR_SERVE;
if (serving) serve(serving, Number(process.env.PORT));
else await compare();
