/**
 * Reading XML answers. Well-formedness is judged by saxes, a strict XML 1.0 parser (names, white
 * space, entities, character references, the declaration: all as XML 1.0 defines them), so the
 * suite's verdict does not rest on a parser of its own; this file only builds the small tree the rules
 * read. A DOCTYPE is refused too: answers have no business declaring entities.
 */
import { SaxesParser } from 'saxes';

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

/** Parses a whole document; throws XmlError, saying where, when it is not well-formed XML 1.0. */
export function parseXml(text: string): XmlDocument {
  const parser = new SaxesParser();
  let declaration: Record<string, string> | undefined;
  let root: XmlElement | undefined;
  const open: XmlElement[] = [];
  // Text and CDATA of the current element, merged until the next child or end tag (comments do not split it).
  let buffer = '';
  const flush = () => {
    const parent = open.at(-1);
    if (parent && buffer) parent.children.push(buffer);
    buffer = '';
  };
  parser.on('xmldecl', (decl) => {
    declaration = Object.fromEntries(
      Object.entries(decl).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
  });
  parser.on('doctype', () => {
    throw new XmlError('a DOCTYPE declaration: answers are not expected to declare one');
  });
  parser.on('opentag', (tag) => {
    flush();
    const element: XmlElement = { name: tag.name, attributes: { ...tag.attributes }, children: [] };
    open.at(-1)?.children.push(element);
    root ??= element;
    open.push(element);
  });
  parser.on('text', (chunk) => {
    if (open.length) buffer += chunk;
  });
  parser.on('cdata', (chunk) => {
    buffer += chunk;
  });
  parser.on('closetag', () => {
    flush();
    open.pop();
  });
  try {
    parser.write(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).close();
  } catch (err) {
    if (err instanceof XmlError) throw err;
    throw new XmlError((err as Error).message);
  }
  if (!root) throw new XmlError('no root element');
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
