import { expect } from 'chai';
import fc from 'fast-check';
import { xml2js } from 'xml-js';
import { isXmlText, xmlDocument } from '../../src/http/xml.ts';
import { USER_TEXT_MAX } from '../../src/users/model.ts';
import { renderUser, renderUserList } from '../../src/users/render.ts';
import { call, SUCCESS, sendForm } from '../support/http.ts';
import { suiteService, usersUrl } from '../support/service.ts';

/** Reads `<user>` back the way a client would: a real XML parser, text of each child element. */
function parseUser(xml: string): { id: string; name: string; profession: string } {
  const doc = xml2js(xml, { compact: true, nativeType: false }) as Record<
    string,
    Record<string, { _text?: string }>
  >;
  const user = doc.user!;
  return { id: user.id!._text ?? '', name: user.name!._text ?? '', profession: user.profession!._text ?? '' };
}

/** Valid XML text, non-blank, within the length limit; biased towards characters that need escaping. */
const xmlText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '<',
        '>',
        '&',
        '"',
        "'",
        ']]>',
        '&amp;',
        '&lt;',
        '\r',
        '\n',
        '\t',
        ' ',
        '\r\n',
        'é',
        '😀',
        '\u2028',
      ),
      fc.string({ unit: 'grapheme', maxLength: 4 }),
    ),
    { minLength: 1, maxLength: 20 },
  )
  .map((parts) => parts.join(''))
  .filter((s) => s.trim() !== '' && isXmlText(s) && [...s].length <= USER_TEXT_MAX);

describe('users: XML rendering', () => {
  it('escapes markup so hostile names stay text (pure render)', () => {
    const xml = renderUser({ id: 9, name: '</name><id>9</id>', profession: 'a & b <c>' });
    expect(xml).to.contain('<name>&lt;/name&gt;&lt;id&gt;9&lt;/id&gt;</name>');
    expect(parseUser(xml)).to.deep.equal({ id: '9', name: '</name><id>9</id>', profession: 'a & b <c>' });
  });

  it('property: any valid XML text round-trips exactly through render and a real parser', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        xmlText,
        xmlText,
        (id, name, profession) => {
          const parsed = parseUser(renderUser({ id, name, profession }));
          expect(parsed).to.deep.equal({ id: String(id), name, profession });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('property: the direct <user> rendering writes the same bytes as the xml-js document builder', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        xmlText,
        xmlText,
        (id, name, profession) => {
          const user = { id, name, profession };
          expect(renderUser(user)).to.equal(xmlDocument('user', user));
          expect(renderUser(Object.freeze({ ...user }))).to.equal(xmlDocument('user', user)); // cached path
        },
      ),
      { numRuns: 500 },
    );
  });

  it('property: a list stays well-formed with one <user> per user', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ name: xmlText, profession: xmlText }), { maxLength: 10 }), (items) => {
        const users = items.map((u, i) => ({ id: i, ...u }));
        const doc = xml2js(renderUserList(users), { compact: true }) as { users: { user?: unknown } };
        const rendered = doc.users.user;
        const count = rendered === undefined ? 0 : Array.isArray(rendered) ? rendered.length : 1;
        expect(count).to.equal(users.length);
      }),
      { numRuns: 200 },
    );
  });

  it('recognises exactly the characters XML 1.0 can carry', () => {
    for (const ok of ['a', '\t', '\n', '\r', '\uD7FF', '\uE000', '\uFFFD', '😀'])
      expect(isXmlText(ok), JSON.stringify(ok)).to.equal(true);
    for (const bad of ['\u0000', '\u0008', '\u000B', '\u001F', '\uFFFE', '\uFFFF', '\uD800', '\uDC00x'])
      expect(isXmlText(bad), JSON.stringify(bad)).to.equal(false);
  });
});

describe('users: hostile text round-trips through PUT and GET over HTTP', () => {
  const svc = suiteService();
  const base = () => usersUrl(svc);

  for (const [i, name] of [
    '</name><id>9</id>',
    'a & b <c>',
    '&amp; literal',
    ']]> "q" \'s',
    'line\r\nbreak',
    'Zoë 😀 ♥',
  ].entries()) {
    it(`keeps ${JSON.stringify(name)} unchanged`, async () => {
      const id = 900 + i;
      expect((await sendForm(base(), 'PUT', { id, name, profession: name })).body).to.equal(SUCCESS);
      const res = await call(`${base()}/${id}`);
      expect(parseUser(res.body)).to.deep.equal({ id: String(id), name, profession: name });
      const list = (await call(base())).body;
      expect(() => xml2js(list)).not.to.throw();
    });
  }

  it('property: generated valid names round-trip over HTTP (PUT, GET, POST, GET)', async () => {
    let id = 10_000;
    await fc.assert(
      fc.asyncProperty(xmlText, xmlText, async (name, profession) => {
        id++;
        expect((await sendForm(base(), 'PUT', { id, name, profession })).body).to.equal(SUCCESS);
        expect(parseUser((await call(`${base()}/${id}`)).body)).to.deep.equal({
          id: String(id),
          name,
          profession,
        });
        expect((await sendForm(base(), 'POST', { id, name: profession, profession: name })).body).to.equal(
          SUCCESS,
        );
        expect(parseUser((await call(`${base()}/${id}`)).body)).to.deep.equal({
          id: String(id),
          name: profession,
          profession: name,
        });
      }),
      { numRuns: 100 },
    );
  });
});
