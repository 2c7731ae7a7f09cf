/**
 * model/xml.ts judges well-formedness with saxes (a strict XML 1.0 parser) and builds the tree the
 * rules read. Property tests: any document written from a random tree (names and text from the whole
 * of XML 1.0's ranges, escaped by entities, character references or CDATA, with comments between) reads
 * back as that tree; the same document with a character XML 1.0 does not allow in a name, or with a
 * white space that is not XML white space, is refused.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { parseXml, type XmlElement } from '../model/xml.ts';

const range = (min: number, max: number) => fc.integer({ min, max });
const chars = (codes: fc.Arbitrary<number>, minLength = 0, maxLength = 8) =>
  fc.array(codes, { minLength, maxLength }).map((list) => String.fromCodePoint(...list));

/** NameStartChar of XML 1.0 (fifth edition), without ":" (namespaces are not the point here). */
const NAME_START = fc.oneof(
  range(0x41, 0x5a),
  range(0x61, 0x7a),
  fc.constant(0x5f),
  range(0xc0, 0xd6),
  range(0xd8, 0xf6),
  range(0xf8, 0x2ff),
  range(0x370, 0x37d),
  range(0x37f, 0x1fff),
  range(0x200c, 0x200d),
  range(0x2070, 0x218f),
  range(0x2c00, 0x2fef),
  range(0x3001, 0xd7ff),
  range(0xf900, 0xfdcf),
  range(0xfdf0, 0xfffd),
  range(0x10000, 0xeffff),
);
const NAME_CHAR = fc.oneof(
  NAME_START,
  fc.constantFrom(0x2d, 0x2e, 0xb7),
  range(0x30, 0x39),
  range(0x300, 0x36f),
  range(0x203f, 0x2040),
);
const name = fc.tuple(chars(NAME_START, 1, 1), chars(NAME_CHAR, 0, 6)).map(([a, b]) => a + b);
/** Char of XML 1.0 (no surrogate halves, no U+FFFE/FFFF, no C0 controls but tab, LF and CR). */
const CHAR = fc.oneof(
  fc.constantFrom(0x9, 0xa, 0xd),
  range(0x20, 0x7e),
  range(0x7f, 0xd7ff),
  range(0xe000, 0xfffd),
  range(0x10000, 0x10ffff),
);
/** Neither a NameStartChar nor a NameChar: `×`, `÷`, NBSP, Greek question mark, spaces and separators. */
const NOT_NAME = fc.constantFrom(0xa0, 0xd7, 0xf7, 0x37e, 0x2000, 0x2009, 0x200b, 0x2028, 0x2041, 0x3000);
/** White space to Unicode, not to XML (which has only space, tab, CR and LF); U+1680 is a name character. */
const NOT_XML_SPACE = fc.constantFrom(0xa0, 0x85, 0x2002, 0x2003, 0x2009, 0x202f, 0x3000);

type Tree = { name: string; attributes: Record<string, string>; children: Array<Tree | string> };

const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.record({
    name,
    attributes: fc.dictionary(name, chars(CHAR), { maxKeys: 3 }),
    children: fc.array(fc.oneof({ depthSize: 'small' }, chars(CHAR, 1), tie('node')), { maxLength: 4 }),
  }),
})).node;

/** How each piece of text is written: entities and references, or a CDATA section where it can be. */
const escapeText = (text: string, cdata: boolean) =>
  cdata && !text.includes(']]>') && !text.includes('\r')
    ? `<![CDATA[${text}]]>`
    : text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
const escapeAttribute = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);

function write(node: Tree, style: { cdata: boolean; comments: boolean }): string {
  const attributes = Object.entries(node.attributes)
    .map(([k, v]) => ` ${k}="${escapeAttribute(v)}"`)
    .join('');
  if (!node.children.length) return `<${node.name}${attributes}/>`;
  const inner = node.children
    .map((c) => (typeof c === 'string' ? escapeText(c, style.cdata) : write(c, style)))
    .join(style.comments ? '<!-- c -->' : '');
  return `<${node.name}${attributes}>${inner}</${node.name}>`;
}

/** What the parser should give: adjacent texts merged (a comment does not split text). */
function expected(node: Tree): XmlElement {
  const children: Array<XmlElement | string> = [];
  for (const c of node.children) {
    const last = children.at(-1);
    if (typeof c === 'string' && typeof last === 'string') children[children.length - 1] = last + c;
    else children.push(typeof c === 'string' ? c : expected(c));
  }
  return { name: node.name, attributes: { ...node.attributes }, children };
}

const style = fc.record({ cdata: fc.boolean(), comments: fc.boolean() });

describe('XML parser (model/xml.ts, saxes)', () => {
  it('a document written from any tree reads back as that tree', () => {
    fc.assert(
      fc.property(tree, style, fc.boolean(), (t, s, declared) => {
        const text = `${declared ? '<?xml version="1.0" encoding="UTF-8"?>\n' : ''}${write(t, s)}`;
        const doc = parseXml(text);
        expect(doc.root).to.deep.equal(expected(t));
        expect(doc.declaration).to.deep.equal(declared ? { version: '1.0', encoding: 'UTF-8' } : undefined);
      }),
      { numRuns: 300 },
    );
  });

  it('a name holding a character XML 1.0 does not allow in names is refused, wherever it is', () => {
    fc.assert(
      fc.property(tree, NOT_NAME, fc.nat(), fc.boolean(), (t, bad, at, first) => {
        const nameBefore = t.name;
        const cut = first ? 0 : 1 + (at % nameBefore.length);
        const broken = {
          ...t,
          name: nameBefore.slice(0, cut) + String.fromCodePoint(bad) + nameBefore.slice(cut),
        };
        expect(() => parseXml(write(broken, { cdata: false, comments: false }))).to.throw();
      }),
      { numRuns: 300 },
    );
  });

  it('white space that is not XML white space does not separate a name from what follows', () => {
    fc.assert(
      fc.property(tree, NOT_XML_SPACE, (t, space) => {
        const text = write({ ...t, children: [] }, { cdata: false, comments: false });
        // The name ends at XML white space, `/` or `>` (not at \s: JavaScript counts U+FEFF, a name character, as space).
        // `<name/>` → `<name /> `, or `<name a="…"/>` → `<name a="…"/>` with the space before the attribute.
        const broken = text.replace(/^<([^ \t\r\n/>]+?)( |\/>)/u, (_m, n: string, next: string) =>
          next === ' ' ? `<${n}${String.fromCodePoint(space)}` : `<${n}${String.fromCodePoint(space)}/>`,
        );
        expect(broken).to.not.equal(text);
        expect(() => parseXml(broken), JSON.stringify(broken)).to.throw();
      }),
      { numRuns: 300 },
    );
  });

  it('refuses `<root\\u00A0/>` and a name starting with `×`, which the former parser accepted', () => {
    expect(() => parseXml('<root\u00A0/>')).to.throw(/disallowed character/);
    expect(() => parseXml('<×root/>')).to.throw(/disallowed character/);
    expect(() => parseXml('<!DOCTYPE a><a/>')).to.throw(/DOCTYPE/);
  });
});
