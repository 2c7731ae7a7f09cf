import { expect } from 'chai';
import { rawExchange } from '../support/http.ts';
import { suiteService } from '../support/service.ts';

/** Splits a stream of HTTP/1.1 answers with Content-Length bodies into [head, body] pairs. */
function answers(text: string): Array<{ head: string; body: string }> {
  const out: Array<{ head: string; body: string }> = [];
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    expect(end, `an end of head in ${JSON.stringify(rest)}`).to.be.greaterThan(0);
    const head = rest.slice(0, end);
    expect(head, 'a status line').to.match(/^HTTP\/1\.1 \d{3} /);
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
    out.push({ head, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

describe('http: pipelined requests that expect 100-continue', () => {
  const svc = suiteService();

  // Found by the HTTP fuzzer (seed 22, case 5521): the list's cached document is a Buffer, and Node put
  // the second answer's head in front of its queued `100 Continue`.
  for (const path of ['/UserService/users', '/UserService/users/1', '/apps/a/domains']) {
    it(`GET ${path} twice, the second with Expect: 100-continue: each answer whole, in order`, async () => {
      const request = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
      const expecting = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`;
      const got = answers(
        await rawExchange(svc.service.port, request + request + expecting, { halfClose: false }),
      );
      expect(got.map((a) => a.head.split('\r\n')[0])).to.deep.equal([
        'HTTP/1.1 200 OK',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 100 Continue',
        'HTTP/1.1 200 OK',
      ]);
      expect(got[3]?.body).to.equal(got[0]?.body);
    });
  }
});
