import { expect } from 'chai';
import { FORM_TYPE } from '../../../testing/form.ts';
import { dumpDiff, dumpRedis } from '../support/dump.ts';
import { call, sendForm } from '../support/http.ts';
import { suiteService, usersUrl } from '../support/service.ts';

interface BadRequest {
  title: string;
  method: 'PUT' | 'POST';
  path?: string;
  body: string;
  contentType?: string | null;
  status: number;
  code: string;
}

const long = 'x'.repeat(257);
const CASES: BadRequest[] = [
  { title: 'missing id', method: 'PUT', body: 'name=a&profession=b', status: 400, code: 'missing_field' },
  { title: 'missing name', method: 'PUT', body: 'id=5&profession=b', status: 400, code: 'missing_field' },
  { title: 'missing profession', method: 'POST', body: 'id=1&name=a', status: 400, code: 'missing_field' },
  { title: 'empty body', method: 'PUT', body: '', status: 400, code: 'missing_field' },
  {
    title: 'duplicated id',
    method: 'PUT',
    body: 'id=5&id=6&name=a&profession=b',
    status: 400,
    code: 'duplicate_field',
  },
  {
    title: 'duplicated name',
    method: 'POST',
    body: 'id=1&name=a&name=b&profession=c',
    status: 400,
    code: 'duplicate_field',
  },
  {
    title: 'unknown field',
    method: 'PUT',
    body: 'id=5&name=a&profession=b&role=admin',
    status: 400,
    code: 'unknown_field',
  },
  {
    title: 'id not an integer',
    method: 'PUT',
    body: 'id=abc&name=a&profession=b',
    status: 400,
    code: 'invalid_id',
  },
  { title: 'id a float', method: 'PUT', body: 'id=1.0&name=a&profession=b', status: 400, code: 'invalid_id' },
  { title: 'id in hex', method: 'PUT', body: 'id=0x5&name=a&profession=b', status: 400, code: 'invalid_id' },
  {
    title: 'id with exponent',
    method: 'PUT',
    body: 'id=1e2&name=a&profession=b',
    status: 400,
    code: 'invalid_id',
  },
  {
    title: 'id with a plus sign',
    method: 'PUT',
    body: 'id=%2B5&name=a&profession=b',
    status: 400,
    code: 'invalid_id',
  },
  {
    title: 'id padded with spaces',
    method: 'PUT',
    body: 'id=+5+&name=a&profession=b',
    status: 400,
    code: 'invalid_id',
  },
  { title: 'id empty', method: 'PUT', body: 'id=&name=a&profession=b', status: 400, code: 'invalid_id' },
  {
    title: 'id above int32',
    method: 'PUT',
    body: 'id=2147483648&name=a&profession=b',
    status: 400,
    code: 'invalid_id',
  },
  {
    title: 'id below int32',
    method: 'PUT',
    body: 'id=-2147483649&name=a&profession=b',
    status: 400,
    code: 'invalid_id',
  },
  {
    title: 'id huge',
    method: 'PUT',
    body: `id=${'9'.repeat(400)}&name=a&profession=b`,
    status: 400,
    code: 'invalid_id',
  },
  { title: 'empty name', method: 'PUT', body: 'id=5&name=&profession=b', status: 400, code: 'invalid_field' },
  {
    title: 'blank profession',
    method: 'POST',
    body: 'id=1&name=a&profession=+++',
    status: 400,
    code: 'invalid_field',
  },
  {
    title: 'name too long',
    method: 'PUT',
    body: `id=5&name=${long}&profession=b`,
    status: 400,
    code: 'invalid_field',
  },
  {
    title: 'NUL in name',
    method: 'PUT',
    body: 'id=5&name=a%00b&profession=b',
    status: 400,
    code: 'invalid_field',
  },
  {
    title: 'control char in profession',
    method: 'POST',
    body: 'id=1&name=a&profession=%1B',
    status: 400,
    code: 'invalid_field',
  },
  {
    title: 'U+FFFE in name',
    method: 'PUT',
    body: 'id=5&name=%EF%BF%BE&profession=b',
    status: 400,
    code: 'invalid_field',
  },
  {
    title: 'invalid UTF-8 escape',
    method: 'PUT',
    body: 'id=5&name=%C3%28&profession=b',
    status: 400,
    code: 'malformed_body',
  },
  {
    title: 'broken percent-escape',
    method: 'PUT',
    body: 'id=5&name=%ZZ&profession=b',
    status: 400,
    code: 'malformed_body',
  },
  {
    title: 'lone surrogate escape',
    method: 'PUT',
    body: 'id=5&name=%ED%A0%80&profession=b',
    status: 400,
    code: 'malformed_body',
  },
  {
    title: 'form id differs from path id',
    method: 'PUT',
    path: '/8',
    body: 'id=9&name=a&profession=b',
    status: 400,
    code: 'id_mismatch',
  },
  {
    title: 'bad path id on PUT',
    method: 'PUT',
    path: '/x',
    body: 'name=a&profession=b',
    status: 400,
    code: 'invalid_id',
  },
  {
    title: 'JSON body',
    method: 'PUT',
    body: '{"id":5}',
    contentType: 'application/json',
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    title: 'no Content-Type',
    method: 'PUT',
    body: 'id=5&name=a&profession=b',
    contentType: null,
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    title: 'text/plain',
    method: 'POST',
    body: 'id=1&name=a&profession=b',
    contentType: 'text/plain',
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    title: 'non-UTF-8 charset',
    method: 'PUT',
    body: 'id=5&name=a&profession=b',
    contentType: `${FORM_TYPE}; charset=latin1`,
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    title: 'multipart form',
    method: 'PUT',
    body: 'id=5',
    contentType: 'multipart/form-data; boundary=x',
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    title: 'body over 64 KiB',
    method: 'PUT',
    body: `id=5&name=a&profession=${'b'.repeat(70_000)}`,
    status: 413,
    code: 'payload_too_large',
  },
];

describe('users: invalid input is rejected with a clear error and changes nothing', () => {
  const svc = suiteService();
  const base = () => usersUrl(svc);
  before(() => call(base())); // initialise the collection, so the snapshot is of a used service

  for (const c of CASES) {
    it(`${c.method} ${c.title} → ${c.status} ${c.code}`, async () => {
      const before = await dumpRedis(svc.redis.url);
      const headers: Record<string, string> = {};
      if (c.contentType !== null) headers['Content-Type'] = c.contentType ?? FORM_TYPE;
      const res = await call(base() + (c.path ?? ''), { method: c.method, headers, body: c.body });
      expect(res.status).to.equal(c.status);
      expect(res.headers.get('content-type')).to.equal('application/xml; charset=utf-8');
      expect(res.body).to.match(
        new RegExp(`^<\\?xml [^>]+\\?><error><code>${c.code}</code><message>[^<]+</message></error>$`),
      );
      const after = await dumpRedis(svc.redis.url);
      expect(after, dumpDiff(before, after)).to.deep.equal(before);
    });
  }

  it('accepts a charset=UTF-8 parameter and + or %20 for spaces', async () => {
    const res = await call(base(), {
      method: 'PUT',
      headers: { 'Content-Type': `${FORM_TYPE}; charset=UTF-8` },
      body: 'id=77&name=Ana+Mar%C3%ADa&profession=data%20engineer',
    });
    expect(res.status).to.equal(200);
    expect((await call(`${base()}/77`)).body).to.contain(
      '<name>Ana María</name><profession>data engineer</profession>',
    );
  });

  it('accepts a name of exactly 256 characters, counted in code points', async () => {
    const name = '😀'.repeat(256);
    expect((await sendForm(base(), 'PUT', { id: 78, name, profession: 'p' })).status).to.equal(200);
  });
});
