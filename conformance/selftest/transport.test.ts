/**
 * support/transport.ts names a request without a usable answer from the HTTP client's error: the
 * messages below are what Playwright's request context and Node's fetch said against the hostile
 * implementations of impl/hostile/ (recorded once; hostile.test.ts runs the suite against them).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { transportFailure } from '../support/transport.ts';

const PW = 'apiRequestContext.fetch: ';
const SENT =
  '\nCall log:\n\u001b[2m  - → GET http://127.0.0.1:41231/UserService/users\u001b[22m\n\u001b[2m    - accept: */*\u001b[22m\n';
const BEGAN = '\u001b[2m  - ← 200 OK\u001b[22m\n\u001b[2m    - content-type: application/xml\u001b[22m\n';

describe('naming a request without a usable answer (support/transport.ts)', () => {
  const cases: Array<[string, string, string | undefined, RegExp | undefined]> = [
    [
      'never answers',
      `${PW}Timeout 15000ms exceeded.${SENT}`,
      'no answer',
      /^no answer within 15 s to GET \/x$/,
    ],
    [
      'a body that never ends',
      `${PW}Timeout 15000ms exceeded.${SENT}${BEGAN}`,
      'body did not end',
      /^body did not end: the answer to GET \/x began \(200 OK\), and its body did not end within 15 s$/,
    ],
    ['not HTTP', `${PW}Parse Error: Expected HTTP/, RTSP/ or ICE/${SENT}`, 'not HTTP', /^not HTTP: /],
    [
      'not HTTP (fetch)',
      'TypeError fetch failed HTTPParserError: Response does not match the HTTP/1.1 protocol (Expected HTTP/)',
      'not HTTP',
      /^not HTTP: /,
    ],
    [
      'closed mid-answer',
      `${PW}aborted${SENT}${BEGAN}`,
      'closed mid-answer',
      /^connection closed mid-answer: GET \/x \(after 200 OK/,
    ],
    [
      'closed before answering',
      `${PW}socket hang up${SENT}`,
      'closed before answering',
      /^connection closed before/,
    ],
    ['refused', `${PW}connect ECONNREFUSED 127.0.0.1:9${SENT}`, 'refused', /^connection refused/],
    [
      'fetch timeout',
      'TimeoutError The operation was aborted due to timeout',
      'no answer',
      /^no answer within 15 s/,
    ],
    ['a bug of the suite', 'TypeError: cannot read properties of undefined', undefined, undefined],
  ];
  for (const [what, message, kind, text] of cases)
    it(`${what}: ${kind ?? 'not about the exchange'}`, () => {
      const found = transportFailure(new Error(message), 'GET /x', 15_000);
      expect(found?.kind).to.equal(kind);
      if (text) expect(found?.text).to.match(text);
    });
});

describe('a safe request on a connection closed before any answer (support/http.ts)', () => {
  it('is sent again once on a new connection; a change is not', () => {
    // support/http.ts needs tsx (parameter properties), not the type stripping this self-test runs with.
    const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tools', 'closed-connection.ts');
    const out = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' }));
    expect(out.get).to.deep.equal({ status: 200, text: '<a>1</a>', connections: 2 });
    expect(out.put.error).to.match(/^connection closed before any answer to PUT/);
    expect(out.put.connections).to.equal(1);
  });
});
