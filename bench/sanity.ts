/**
 * Before any figure: the same requests to the server and to the baseline must get the same bytes back
 * (status, the headers that matter, body), so the two are compared doing the same work.
 */
import type { Target } from './load.ts';
import { BENCH_APP, FORM_HEADERS, JSON_HEADERS, seedRemovalGroup, seedUsers, userForm } from './seed.ts';

interface Probe {
  method: string;
  /** `{last}` stands for the id of the last resource created (201). */
  path: string;
  body?: string;
}

const PROBES: Probe[] = [
  { method: 'GET', path: '/UserService/users' },
  { method: 'HEAD', path: '/UserService/users' },
  { method: 'GET', path: '/UserService/users/7' },
  { method: 'GET', path: '/UserService/users/1' },
  { method: 'GET', path: '/UserService/users/999' },
  { method: 'PUT', path: '/UserService/users', body: userForm(50, 'Zoë & <Co>\r', 'Chef "1"') },
  { method: 'PUT', path: '/UserService/users', body: userForm(50, 'again', 'again') },
  { method: 'GET', path: '/UserService/users/50' },
  { method: 'POST', path: '/UserService/users', body: userForm(3, 'Renamed', 'Clerk') },
  { method: 'POST', path: '/UserService/users', body: userForm(404, 'Nobody', 'None') },
  { method: 'DELETE', path: '/UserService/users/2' },
  { method: 'DELETE', path: '/UserService/users/2' },
  { method: 'GET', path: '/UserService/users' },
  { method: 'POST', path: `/apps/${BENCH_APP}/domains`, body: '{"hostname":"WWW.Example.com"}' },
  { method: 'DELETE', path: `/apps/${BENCH_APP}/domains/{last}` },
  { method: 'DELETE', path: `/apps/${BENCH_APP}/domains/{last}` },
  { method: 'POST', path: `/apps/${BENCH_APP}/workers`, body: '{"command":"run --fast"}' },
  { method: 'DELETE', path: `/apps/${BENCH_APP}/workers/{last}` },
  { method: 'DELETE', path: `/apps/${BENCH_APP}/workers/{last}` },
];

const COMPARED_HEADERS = [
  'content-type',
  'content-length',
  'request-id',
  'x-content-type-options',
  'location',
];

/** Generated ids and timestamps differ between the two servers by nature: compared as placeholders. */
const mask = (text: string) =>
  text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>');

async function probeAll(target: Target): Promise<string[]> {
  await seedUsers(target.client, 10);
  await seedRemovalGroup(target.client);
  const out: string[] = [];
  let last = '';
  for (const probe of PROBES) {
    const json = probe.path.startsWith('/apps/');
    const res = await fetch(target.node.url + probe.path.replace('{last}', last), {
      method: probe.method,
      headers: { 'Request-Id': 'bench-sanity', ...(probe.body ? (json ? JSON_HEADERS : FORM_HEADERS) : {}) },
      body: probe.body,
      signal: AbortSignal.timeout(5000),
    });
    const headers = COMPARED_HEADERS.map((name) => `${name}: ${res.headers.get(name)}`).join('\n');
    const body = await res.text();
    if (res.status === 201) last = (JSON.parse(body) as { id: string }).id;
    out.push(mask(`${probe.method} ${probe.path} -> ${res.status}\n${headers}\n\n${body}`));
  }
  return out;
}

export interface SanityResult {
  identical: number;
  total: number;
  differences: string[];
}

/** Sends every probe to `a` (the server) then to `b` (the baseline) and compares the answers one by one. */
export async function sanity(a: Target, b: Target): Promise<SanityResult> {
  const [left, right] = [await probeAll(a), await probeAll(b)];
  const differences: string[] = [];
  left.forEach((text, i) => {
    if (text !== right[i]) differences.push(`--- server\n${text}\n--- baseline\n${right[i]}`);
  });
  return { identical: left.length - differences.length, total: left.length, differences };
}
