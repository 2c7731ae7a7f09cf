/**
 * summary.json against summary.schema.json (report/schema.ts): a summary matches; each way of breaking
 * one is named by where it is, as Ajv names it too; compare refuses a file that is not a summary with
 * the exit code of a run that could not run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { summaryProblems } from '../report/schema.ts';
import type { Summary } from '../report/summary.ts';
import { EXIT } from '../support/exit-codes.mjs';
import { ajvProblems } from './summary-schema.ts';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cli.mjs');

const exchange = {
  request: { method: 'PUT', url: 'http://127.0.0.1:1/UserService/users', headers: {}, body: 'id=1' },
  response: {
    status: 200,
    headers: { 'content-type': 'application/xml' },
    body: '',
    bytes: 0,
    truncated: false,
  },
  bodyLimit: 4096,
  curl: "curl -sS -i -X PUT 'http://127.0.0.1:1/UserService/users'",
};
const signature = { operation: 'PUT (existing id)', aspect: 'state-change', seen: 'replaced' } as const;

const summary = (): Summary => ({
  suite: { name: 'user-service-conformance', version: '0.4.0' },
  spec: { revision: 'sha256:0' },
  name: 'impl',
  target: 'http://127.0.0.1:1',
  verdict: 'does not conform',
  generatedAt: '2000-01-01T00:00:00.000Z',
  counts: {
    passed: 1,
    failed: 1,
    skipped: 0,
    warnings: 0,
    notSetUp: 0,
    notFinished: 0,
    expectedFailures: 0,
    unexpectedPasses: 0,
    notSelected: 0,
  },
  errors: [],
  defects: [
    {
      id: 'D1',
      level: 'MUST',
      title: 'PUT (existing id): replaced',
      signature,
      rules: ['USR-PUT-03'],
      exchanges: [exchange],
      curl: exchange.curl,
    },
  ],
  rules: [
    {
      id: 'USR-PUT-03',
      level: 'MUST',
      section: 'A.3 PUT (create)',
      title: 'PUT of an existing id answers failure',
      spec: 'A-R3.3',
      statements: ['A-R3.3'],
      status: 'failed',
      reason: 'replaced',
      exchange,
      signatures: [signature],
    },
    {
      id: 'USR-PUT-01',
      level: 'MUST',
      section: 'A.3 PUT (create)',
      title: 't',
      spec: 's',
      statements: [],
      status: 'passed',
    },
  ],
});

// biome-ignore lint/suspicious/noExplicitAny: the cases break a summary field by field, as plain JSON
type Json = any;

/** A summary changed by `change` (a deep copy). */
const broken = (change: (s: Json) => void): unknown => {
  const s: Json = structuredClone(summary());
  change(s);
  return s;
};

describe('summary.json against summary.schema.json (report/schema.ts)', () => {
  it('a summary as the reporter writes it matches, for report/schema.ts and for Ajv', () => {
    expect(summaryProblems(summary())).to.deep.equal([]);
    expect(ajvProblems(summary())).to.deep.equal([]);
  });

  const cases: Array<[string, unknown, string]> = [
    ['not an object', [], '/ must be of type object'],
    ['no verdict', broken((s) => delete s.verdict), '/ must have the property verdict'],
    ['a verdict of its own', broken((s) => (s.verdict = 'fine')), '/verdict must be one of'],
    [
      'another suite',
      broken((s) => (s.suite.name = 'other')),
      '/suite/name must be "user-service-conformance"',
    ],
    ['an empty name', broken((s) => (s.name = '')), '/name must have at least 1 character(s)'],
    [
      'a count not an integer',
      broken((s) => (s.counts.passed = 1.5)),
      '/counts/passed must be of type integer',
    ],
    ['a negative count', broken((s) => (s.counts.failed = -1)), '/counts/failed must be >= 0'],
    ['a property the schema does not have', broken((s) => (s.extra = 1)), '/extra is not a property'],
    ['a status of its own', broken((s) => (s.rules[1].status = 'ok')), '/rules/1/status must be one of'],
    [
      'a rule id of another form',
      broken((s) => (s.rules[0].id = 'put-3')),
      '/rules/0/id must match the pattern',
    ],
    [
      'a header not a string',
      broken((s) => (s.rules[0].exchange.response.headers.x = 1)),
      '/rules/0/exchange/response/headers/x must be of type string',
    ],
    [
      'a replay that is not curl',
      broken((s) => (s.defects[0].exchanges[0].curl = 'wget x')),
      '/defects/0/exchanges/0/curl must match',
    ],
    [
      'a signature without what was seen',
      broken((s) => delete s.defects[0].signature.seen),
      '/defects/0/signature must have the property seen',
    ],
  ];
  for (const [what, data, problem] of cases)
    it(`${what}: named where it is, and Ajv rejects it too`, () => {
      const problems = summaryProblems(data);
      expect(problems.join('\n')).to.include(problem);
      expect(ajvProblems(data), 'Ajv').to.not.deep.equal([]);
    });

  it('compare refuses a file that is not a summary: the file and what is wrong, exit code 3 (could not run)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-schema-'));
    try {
      const good = path.join(dir, 'good.json');
      const bad = path.join(dir, 'bad.json');
      const text = path.join(dir, 'text.json');
      fs.writeFileSync(good, JSON.stringify(summary()));
      fs.writeFileSync(bad, JSON.stringify(broken((s) => delete s.counts)));
      fs.writeFileSync(text, 'not json');
      const compare = (...files: string[]) =>
        spawnSync(process.execPath, [CLI, 'compare', ...files, '--out', path.join(dir, 'out')], {
          encoding: 'utf8',
        });
      expect(compare(good).status).to.equal(EXIT.conforms);
      const refused = compare(good, bad);
      expect(refused.status).to.equal(EXIT.couldNotRun);
      expect(refused.stderr).to.include(
        `compare: ${bad} does not match summary.schema.json: / must have the property counts`,
      );
      const unreadable = compare(text, good);
      expect(unreadable.status).to.equal(EXIT.couldNotRun);
      expect(unreadable.stderr).to.include(`compare: ${text} is not JSON`);
      const missing = compare(path.join(dir, 'none.json'));
      expect(missing.status).to.equal(EXIT.couldNotRun);
      expect(missing.stderr).to.include(`compare: ${path.join(dir, 'none.json')} could not be read`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
