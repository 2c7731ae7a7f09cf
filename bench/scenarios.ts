/** The scenarios of `make bench` (bench/run.ts) as data: what each seeds and which requests it sends. */
import type autocannon from 'autocannon';
import type { Redis } from 'ioredis';
import {
  BENCH_APP,
  FORM_HEADERS,
  JSON_HEADERS,
  seedRemovalGroup,
  seedWorkers,
  userForm,
  workerId,
} from './seed.ts';

export interface Scenario {
  id: string;
  title: string;
  /** Users seeded before each run (ids 1..n). */
  seed: number;
  /** Further data stored after the users. */
  seedMore?: (redis: Redis) => Promise<void>;
  /** Requests for one run; called afresh per run so counters restart. */
  requests(): autocannon.Request[];
  /** HEAD requests only: the answers carry no body (see bench/load.ts). */
  headOnly?: boolean;
}

const WORKERS_SEEDED = 150_000;

export const SCENARIOS: Scenario[] = [
  {
    id: 'get-by-id',
    title: 'GET /UserService/users/{id}',
    seed: 1000,
    requests() {
      let n = 0;
      return [
        {
          method: 'GET',
          setupRequest: (req) => ({ ...req, path: `/UserService/users/${1 + (n++ % 1000)}` }),
        },
      ];
    },
  },
  ...[1, 1000, 10_000].map(
    (size): Scenario => ({
      id: `list-${size}`,
      title: `GET /UserService/users (${size.toLocaleString('en')} user${size === 1 ? '' : 's'})`,
      seed: size,
      requests: () => [{ method: 'GET', path: '/UserService/users' }],
    }),
  ),
  {
    id: 'head-list',
    title: 'HEAD /UserService/users (1,000 users)',
    seed: 1000,
    headOnly: true,
    requests: () => [{ method: 'HEAD', path: '/UserService/users' }],
  },
  {
    id: 'put-create',
    title: 'PUT /UserService/users (new ids)',
    seed: 1000,
    requests() {
      let n = 1_000_000;
      return [
        {
          method: 'PUT',
          path: '/UserService/users',
          headers: FORM_HEADERS,
          setupRequest: (req) => ({ ...req, body: userForm(n++, 'New Person', 'Engineer') }),
        },
      ];
    },
  },
  {
    id: 'post-update',
    title: 'POST /UserService/users (existing ids)',
    seed: 1000,
    requests() {
      let n = 0;
      return [
        {
          method: 'POST',
          path: '/UserService/users',
          headers: FORM_HEADERS,
          setupRequest: (req) => ({ ...req, body: userForm(1 + (n++ % 1000), `Renamed ${n}`, 'Clerk') }),
        },
      ];
    },
  },
  {
    id: 'delete',
    title: 'DELETE /UserService/users/{id} (existing ids)',
    seed: 200_000,
    requests() {
      let n = 1;
      return [{ method: 'DELETE', setupRequest: (req) => ({ ...req, path: `/UserService/users/${n++}` }) }];
    },
  },
  {
    id: 'mix',
    title: 'mix: 80 % GET by id, 10 % POST, 5 % PUT, 5 % DELETE',
    seed: 200_000,
    requests() {
      // Deterministic sequence: every target gets the same one. Reads and updates use ids 1..1000,
      // deletes walk 1001.. (never read), creates use new ids from 10,000,000.
      let n = 0;
      let nextDelete = 1001;
      let nextCreate = 10_000_000;
      return [
        {
          setupRequest: (req) => {
            const slot = n % 20;
            const id = 1 + ((n * 7919) % 1000);
            n++;
            if (slot < 16)
              return { ...req, method: 'GET', path: `/UserService/users/${id}`, body: undefined };
            if (slot < 18) {
              return {
                ...req,
                method: 'POST',
                path: '/UserService/users',
                headers: FORM_HEADERS,
                body: userForm(id, `Mixed ${n}`, 'Clerk'),
              };
            }
            if (slot === 18) {
              return {
                ...req,
                method: 'PUT',
                path: '/UserService/users',
                headers: FORM_HEADERS,
                body: userForm(nextCreate++, 'New', 'Cook'),
              };
            }
            return { ...req, method: 'DELETE', path: `/UserService/users/${nextDelete++}`, body: undefined };
          },
        },
      ];
    },
  },
  {
    id: 'domain-create-delete',
    title: 'domain POST (201) then DELETE (200), alternating',
    seed: 1,
    seedMore: seedRemovalGroup,
    requests() {
      let n = 0;
      return [
        {
          method: 'POST',
          path: `/apps/${BENCH_APP}/domains`,
          headers: JSON_HEADERS,
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({ hostname: `host-${n++}.bench.example.com` }),
          }),
          onResponse: (status, body, context) => {
            (context as { id?: string }).id =
              status === 201 ? (JSON.parse(body) as { id: string }).id : 'missing';
          },
        },
        {
          method: 'DELETE',
          setupRequest: (req, context) => ({
            ...req,
            path: `/apps/${BENCH_APP}/domains/${(context as { id?: string }).id}`,
            body: undefined,
            headers: {},
          }),
        },
      ];
    },
  },
  {
    id: 'worker-delete',
    title: 'worker DELETE (202 {}, removal job 1 s later)',
    seed: 1,
    seedMore: (redis) => seedWorkers(redis, WORKERS_SEEDED),
    requests() {
      let n = 1;
      return [
        {
          method: 'DELETE',
          setupRequest: (req) => ({ ...req, path: `/apps/${BENCH_APP}/workers/${workerId(n++)}` }),
        },
      ];
    },
  },
];
