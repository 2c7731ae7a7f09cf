import { js2xml } from 'xml-js';

/** Every XML answer starts with this declaration (DESIGN.md). */
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
export const XML_CONTENT_TYPE = 'application/xml; charset=utf-8';

/** A child element: its text, or nested children in order. */
export type XmlContent = string | number | { [element: string]: XmlContent };

/**
 * True when every character can appear in XML 1.0 text:
 * #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF] (lone surrogates excluded).
 */
export function isXmlText(text: string): boolean {
  return !/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(text);
}

/**
 * xml-js un-escapes "&amp;" before it escapes `&`, `<` and `>`, which would turn a literal "&amp;"
 * into "&". Escaping `&` first makes that step an exact inverse, so every text round-trips.
 * A carriage return is written as a character reference: parsers turn a raw CR into LF.
 */
function toXmlJsText(text: string): string {
  return text.replace(/&/g, '&amp;');
}

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
const NEEDS_ESCAPE = /[&<>\r]/;
const ESCAPED = /[&<>\r]/g;

/**
 * Element text exactly as `xmlElement` writes it (`&`, `<`, `>` escaped, CR as `&#13;`), without
 * building an xml-js tree: the hot paths (a user, a list of users) render with this.
 */
export function escapeXmlText(text: string): string {
  return NEEDS_ESCAPE.test(text) ? text.replace(ESCAPED, (ch) => TEXT_ESCAPES[ch] as string) : text;
}

const JS2XML_OPTIONS = {
  compact: true,
  fullTagEmptyElement: false,
  textFn: (text: string) => text.replace(/\r/g, '&#13;'),
} as const;

function toXmlJs(content: XmlContent): unknown {
  if (typeof content === 'number') return { _text: String(content) };
  if (typeof content === 'string') return { _text: toXmlJsText(content) };
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(content)) out[name] = toXmlJs(child);
  return out;
}

/** One element, no declaration: `<name>…</name>`. */
export function xmlElement(name: string, content: XmlContent): string {
  return js2xml({ [name]: toXmlJs(content) }, JS2XML_OPTIONS);
}

/** A whole document: the declaration, then the root element. */
export function xmlDocument(name: string, content: XmlContent): string {
  return XML_DECLARATION + xmlElement(name, content);
}

/** A document whose root holds already-rendered child elements (used for lists). */
export function xmlDocumentOf(name: string, renderedChildren: string): string {
  return renderedChildren === ''
    ? `${XML_DECLARATION}<${name}/>`
    : `${XML_DECLARATION}<${name}>${renderedChildren}</${name}>`;
}

const NOT_XML_TEXT = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * `text` with every character XML 1.0 cannot carry (controls, U+FFFE/U+FFFF, lone surrogates) written
 * as a visible `\u{…}` escape, so that text quoted from a request keeps an error document well-formed.
 */
export function xmlSafeText(text: string): string {
  return isXmlText(text)
    ? text
    : text.replace(NOT_XML_TEXT, (ch) => `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}`);
}

export function renderXmlError(code: string, message: string): string {
  return xmlDocument('error', { code, message: xmlSafeText(message) });
}
