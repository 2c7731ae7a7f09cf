/**
 * A small, strict XML 1.0 parser: enough to tell whether a document is well-formed and to read it.
 * It rejects what a lenient parser would repair (a raw `&` or `<` in text, `]]>` outside CDATA,
 * mismatched tags, two roots, text outside the root, undefined entities, `<` in attribute values).
 * No dependency, so the suite's verdict does not hang on a library's leniency.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: Array<XmlElement | string>;
}

export interface XmlDocument {
  declaration: Record<string, string> | undefined;
  root: XmlElement;
}

export class XmlError extends Error {}

const NAME = /^[A-Za-z_:\u00C0-\uFFFF][-A-Za-z0-9_:.\u00B7\u00C0-\uFFFF]*/;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

function decodeEntities(raw: string, where: string): string {
  return raw.replace(/&([^;&<\s]*);?/g, (match, ref: string) => {
    if (!match.endsWith(';'))
      throw new XmlError(`a raw "&" in ${where}: ${JSON.stringify(match.slice(0, 20))}`);
    if (ref in PREDEFINED) return PREDEFINED[ref] as string;
    const num = /^#x([0-9a-fA-F]+)$/.exec(ref) ?? /^#([0-9]+)$/.exec(ref);
    if (num) {
      const code = Number.parseInt(num[1] as string, ref.startsWith('#x') ? 16 : 10);
      if (!isXmlChar(code)) throw new XmlError(`character reference &${ref}; is not an XML character`);
      return String.fromCodePoint(code);
    }
    throw new XmlError(`undefined entity &${ref}; in ${where}`);
  });
}

export function parseXml(text: string): XmlDocument {
  let pos = 0;
  if (text.charCodeAt(0) === 0xfeff) pos = 1;
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (!isXmlChar(code))
      throw new XmlError(`character U+${code.toString(16).padStart(4, '0')} is not allowed in XML`);
  }
  let declaration: Record<string, string> | undefined;
  const fail = (message: string): never => {
    throw new XmlError(`${message} (at offset ${pos}: ${JSON.stringify(text.slice(pos, pos + 30))})`);
  };
  const skipSpace = () => {
    while (pos < text.length && /\s/.test(text[pos] as string)) pos++;
  };
  const readName = (): string => {
    const m = NAME.exec(text.slice(pos, pos + 200));
    if (!m) fail('expected a name');
    pos += (m as RegExpExecArray)[0].length;
    return (m as RegExpExecArray)[0];
  };
  const readAttributes = (): Record<string, string> => {
    const attrs: Record<string, string> = {};
    for (;;) {
      const before = pos;
      skipSpace();
      const ch = text[pos];
      if (ch === '>' || ch === '/' || ch === '?' || ch === undefined) return attrs;
      if (pos === before) fail('expected white space before an attribute');
      const name = readName();
      skipSpace();
      if (text[pos] !== '=') fail(`expected "=" after attribute ${name}`);
      pos++;
      skipSpace();
      const quote = text[pos];
      if (quote !== '"' && quote !== "'") fail('expected a quoted attribute value');
      const end = text.indexOf(quote as string, pos + 1);
      if (end < 0) fail('unterminated attribute value');
      const raw = text.slice(pos + 1, end);
      if (raw.includes('<')) fail('"<" in an attribute value');
      if (name in attrs) fail(`attribute ${name} given twice`);
      attrs[name] = decodeEntities(raw, `attribute ${name}`);
      pos = end + 1;
    }
  };
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (text.startsWith('<!--', pos)) {
        const end = text.indexOf('-->', pos + 4);
        if (end < 0) fail('unterminated comment');
        if (text.slice(pos + 4, end).includes('--')) fail('"--" inside a comment');
        pos = end + 3;
      } else if (text.startsWith('<?', pos) && !text.startsWith('<?xml ', pos)) {
        const end = text.indexOf('?>', pos);
        if (end < 0) fail('unterminated processing instruction');
        pos = end + 2;
      } else return;
    }
  };

  if (text.startsWith('<?xml', pos)) {
    pos += 5;
    declaration = readAttributes();
    if (!text.startsWith('?>', pos)) fail('unterminated XML declaration');
    pos += 2;
    if (!('version' in declaration)) fail('XML declaration without version');
  }
  skipMisc();
  if (text.startsWith('<!DOCTYPE', pos)) fail('DOCTYPE declarations are not expected in answers');

  const parseElement = (): XmlElement => {
    if (text[pos] !== '<') fail('expected an element');
    pos++;
    const element: XmlElement = { name: readName(), attributes: {}, children: [] };
    element.attributes = readAttributes();
    if (text.startsWith('/>', pos)) {
      pos += 2;
      return element;
    }
    if (text[pos] !== '>') fail(`malformed start tag <${element.name}>`);
    pos++;
    let buffer = '';
    const flush = () => {
      if (buffer) element.children.push(buffer);
      buffer = '';
    };
    for (;;) {
      if (pos >= text.length) fail(`element <${element.name}> is not closed`);
      const next = text.indexOf('<', pos);
      if (next < 0) fail(`element <${element.name}> is not closed`);
      const raw = text.slice(pos, next);
      if (raw.includes(']]>')) fail('"]]>" in text content');
      buffer += decodeEntities(raw, `text of <${element.name}>`);
      pos = next;
      if (text.startsWith('</', pos)) {
        pos += 2;
        const name = readName();
        if (name !== element.name) fail(`closing tag </${name}> does not match <${element.name}>`);
        skipSpace();
        if (text[pos] !== '>') fail('malformed end tag');
        pos++;
        flush();
        return element;
      }
      if (text.startsWith('<![CDATA[', pos)) {
        const end = text.indexOf(']]>', pos + 9);
        if (end < 0) fail('unterminated CDATA section');
        buffer += text.slice(pos + 9, end);
        pos = end + 3;
      } else if (text.startsWith('<!--', pos) || text.startsWith('<?', pos)) {
        skipMisc();
      } else {
        flush();
        element.children.push(parseElement());
      }
    }
  };
  const root = parseElement();
  skipMisc();
  if (pos < text.length) fail('content after the root element');
  return { declaration, root };
}

/** Child elements, optionally only those with a given name. */
export function elements(parent: XmlElement, name?: string): XmlElement[] {
  return parent.children.filter((c): c is XmlElement => typeof c !== 'string' && (!name || c.name === name));
}

/** Concatenated text of an element (its text children and those of its descendants). */
export function textOf(element: XmlElement): string {
  return element.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}

/** Text of the single child element `name`; undefined when absent or repeated. */
export function childText(parent: XmlElement, name: string): string | undefined {
  const found = elements(parent, name);
  return found.length === 1 ? textOf(found[0] as XmlElement) : undefined;
}
