import { expect } from 'chai';
import fc from 'fast-check';
import { BadRequestError } from '../../src/errors.ts';
import { parseForm, pickFormFields } from '../../src/http/form.ts';
import { parseUserId } from '../../src/users/model.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('form decoding (pure)', () => {
  it('decodes + as space, percent-escapes as UTF-8, and keeps repeats in order', () => {
    expect(parseForm(bytes('a=1+2&b=%C3%A9%2B&a=3&flag'))).to.deep.equal([
      ['a', '1 2'],
      ['b', 'é+'],
      ['a', '3'],
      ['flag', ''],
    ]);
  });

  it('property: whatever URLSearchParams encodes, parseForm decodes back', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }))),
        (pairs) => {
          const encoded = new URLSearchParams(pairs).toString();
          expect(parseForm(bytes(encoded))).to.deep.equal(pairs);
        },
      ),
    );
  });

  it('rejects bytes that are not UTF-8, raw or escaped', () => {
    expect(() => parseForm(new Uint8Array([0x69, 0x64, 0x3d, 0xff]))).to.throw(BadRequestError);
    expect(() => parseForm(bytes('id=%FF'))).to.throw(BadRequestError);
    expect(() => parseForm(bytes('id=%'))).to.throw(BadRequestError);
  });

  it('picks exactly the expected fields', () => {
    expect(
      pickFormFields(
        [
          ['a', '1'],
          ['b', '2'],
        ],
        ['a', 'b'],
      ),
    ).to.deep.equal({ a: '1', b: '2' });
    expect(() => pickFormFields([['a', '1']], ['a', 'b'])).to.throw(/missing/);
    expect(() =>
      pickFormFields(
        [
          ['a', '1'],
          ['a', '2'],
          ['b', '2'],
        ],
        ['a', 'b'],
      ),
    ).to.throw(/more than once/);
    expect(() =>
      pickFormFields(
        [
          ['a', '1'],
          ['b', '2'],
          ['c', '3'],
        ],
        ['a', 'b'],
      ),
    ).to.throw(/unknown/);
  });
});

describe('user id parsing (pure)', () => {
  it('property: every int32 in canonical or zero-padded form parses to itself', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.nat(5), (id, zeros) => {
        expect(parseUserId(String(id))).to.equal(id);
        const padded = id < 0 ? `-${'0'.repeat(zeros)}${-id}` : `${'0'.repeat(zeros)}${id}`;
        expect(parseUserId(padded)).to.equal(id);
      }),
    );
  });

  it('property: integers outside int32 are rejected', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 2n ** 31n, max: 2n ** 70n }), fc.boolean(), (n, negative) => {
        const value = negative ? -n - 1n : n;
        expect(() => parseUserId(String(value))).to.throw(BadRequestError);
      }),
    );
  });

  it('rejects everything that is not a plain decimal integer', () => {
    for (const bad of ['', ' 1', '1 ', '+1', '1.0', '1e3', '0x1', '--1', '١', 'NaN', 'Infinity']) {
      expect(() => parseUserId(bad), JSON.stringify(bad)).to.throw(BadRequestError);
    }
    expect(Object.is(parseUserId('-0'), 0)).to.equal(true);
  });
});
