import { expect } from 'chai';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { FORM_TYPE, formBody } from '../../../testing/form.ts';
import { rawRequest, request } from '../../../testing/http.ts';
import { USER_KEYS } from '../../src/users/keys.ts';
import { dumpDiff, dumpRedis } from '../support/dump.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { printFigures } from './support/figures.ts';
import { LEAK, raw } from './support/hostile-cases.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

/** Field names: the real ones, near misses and junk. */
const fieldName = fc.oneof(
  fc.constantFrom('id', 'name', 'profession', 'ID', 'Name', 'id[]', '', 'role', '%69d', 'na%6De'),
  fc.string({ maxLength: 8 }),
);
/** Values: ids of every shape, texts with XML-special and control characters, full Unicode. */
const fieldValue = fc.oneof(
  fc.integer({ min: -3_000_000_000, max: 3_000_000_000 }).map(String),
  fc.constantFrom(
    '1',
    '2',
    '007',
    '-0',
    '1e3',
    '0x1',
    '1.0',
    ' 1',
    '',
    ']]>',
    '<a>&amp;</a>',
    '%00',
    '%',
    '%E2%82',
    '+',
    'NaN',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const encodedPair = fc
  .tuple(fieldName, fieldValue, fc.boolean())
  .map(([name, value, encode]) => formBody([[name, value]], { encode: encode ? 'component' : 'none' }));
const plausibleForm = fc
  .tuple(
    fc.oneof(fc.integer({ min: -5, max: 60 }).map(String), fieldValue),
    fieldValue,
    fieldValue,
    fc.boolean(),
  )
  .map(([id, name, profession, encode]) =>
    Buffer.from(formBody({ id, name, profession }, { encode: encode ? 'component' : 'none' }), 'utf8'),
  );
const formBodies = fc.oneof(
  { weight: 4, arbitrary: plausibleForm },
  {
    weight: 3,
    arbitrary: fc.array(encodedPair, { maxLength: 6 }).map((pairs) => Buffer.from(pairs.join('&'), 'utf8')),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
);
/** A path segment of printable ASCII (what a request line can carry), often percent-encoded bytes. */
const segment = fc.oneof(
  fc.stringMatching(/^[\x21-\x7e]{0,24}$/),
  fc.integer({ min: -3_000_000_000, max: 3_000_000_000 }).map(String),
  fc
    .uint8Array({ maxLength: 12 })
    .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
);

interface Tally {
  requests: number;
  byStatus: Record<number, number>;
  accepted: number;
}

/** Every stored user is a well-formed record: canonical id in range, non-empty XML-safe texts. */
async function checkStore(redis: Redis): Promise<void> {
  const all = await redis.hgetall(USER_KEYS.users);
  for (const [id, value] of Object.entries(all)) {
    expect(String(Number(id)), `canonical id ${id}`).to.equal(id);
    expect(Math.abs(Number(id))).to.be.at.most(2_147_483_648);
    const user = JSON.parse(value) as { name: unknown; profession: unknown };
    expect(Object.keys(user).sort()).to.deep.equal(['name', 'profession']);
    for (const text of [user.name, user.profession]) {
      expect(text).to.be.a('string');
      expect((text as string).trim()).to.not.equal('');
      expect(text).to.not.match(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u);
    }
  }
}

/**
 * Issue 5, fuzz: fast-check drives form bodies and paths at the server for a bounded number of
 * cases. Invariants: no 5xx, the server stays up, a refused request leaves Redis byte for byte
 * unchanged, and the store only ever holds well-formed users.
 */
describe(`fuzz: form bodies and paths (fast-check, ${RUNS} runs each)`, function () {
  this.timeout(180_000);
  let svc: TestService;
  let port: number;
  let redis: Redis;
  const tally: Record<string, Tally> = {};

  before(async () => {
    svc = await startTestService();
    port = Number(new URL(svc.url).port);
    redis = new Redis(svc.redis.url);
    await request(`${svc.url}/UserService/users`);
  });
  after(async () => {
    printFigures('fuzz (fast-check)', { 'runs per property': RUNS, ...tally });
    redis.disconnect();
    await svc.close();
  });

  /** Sends one request and checks the invariants; returns the status. */
  async function probe(name: string, bytes: string | Buffer): Promise<number> {
    const before = await dumpRedis(svc.redis.url);
    const reply = await rawRequest(port, bytes, { timeoutMs: 5000 });
    tally[name] ??= { requests: 0, byStatus: {}, accepted: 0 };
    const t = tally[name];
    t.requests++;
    t.byStatus[reply.status] = (t.byStatus[reply.status] ?? 0) + 1;
    expect(reply.status, reply.body.slice(0, 200)).to.be.within(200, 499);
    expect(reply.body).to.not.match(LEAK);
    expect(reply.headers['x-content-type-options']).to.equal('nosniff');
    if (reply.status >= 400) {
      const after = await dumpRedis(svc.redis.url);
      expect(after, dumpDiff(before, after)).to.deep.equal(before);
    } else {
      t.accepted++;
      await checkStore(redis);
    }
    expect((await request(`${svc.url}/healthz`, { timeoutMs: 2000 })).status).to.equal(200);
    return reply.status;
  }

  it('PUT/POST with arbitrary form bodies: no 5xx, refused ones change nothing, the store stays well-formed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('PUT', 'POST'),
        fc.option(segment, { freq: 4 }),
        formBodies,
        async (method, seg, body) => {
          const path = seg === null ? '/UserService/users' : `/UserService/users/${seg}`;
          await probe('form bodies', raw({ method, path, headers: { 'Content-Type': FORM_TYPE }, body }));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('arbitrary paths with every method: no 5xx, refused ones change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'HEAD', 'DELETE', 'OPTIONS', 'PATCH', 'PUT'),
        fc.constantFrom('/UserService/users/', '/UserService/', '/apps/a/domains/', '/apps/', '/'),
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        async (method, prefix, segs) => {
          await probe('paths', raw({ method, path: prefix + segs.join('/') }));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('POST of arbitrary JSON to /apps: no 5xx, refused ones change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('domains', 'workers'),
        fc.oneof(
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ hostname: v, command: v })),
        ),
        async (kind, body) => {
          await probe(
            'json bodies',
            raw({
              method: 'POST',
              path: `/apps/fuzz-app/${kind}`,
              headers: { 'Content-Type': 'application/json' },
              body,
            }),
          );
        },
      ),
      { numRuns: RUNS },
    );
  });
});
