import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { type Element, xml2js } from 'xml-js';
import { XML_DECLARATION } from '../../src/http/xml.ts';
import { describeService } from '../../src/service.ts';

/**
 * Checks an answer of the server against its OpenAPI description (server/src/openapi/document.ts):
 * the path and method are described (else the answer must be the described 405 or 404), the status is
 * one the operation lists, the required headers are there and match, the content type is one listed,
 * and the body matches its schema. XML bodies are read into the structure their schema describes
 * (element names from `xml.name`, repeated elements for arrays), so the element structure is checked.
 * Every helper in http.ts calls it; `checkedCount()` says how many answers were checked in this run.
 */

// biome-ignore lint/suspicious/noExplicitAny: the description is walked as plain JSON
type Json = any;

const SCHEMAS_ID = 'usersvc:openapi';

export class DescriptionMismatch extends Error {
  override name = 'DescriptionMismatch';
}

interface PathEntry {
  template: string;
  pattern: RegExp;
  item: Json;
}

/** The description's schemas refer to `#/components/schemas/X`; for ajv they live in one schema's $defs. */
function forAjv(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${SCHEMAS_ID}#/$defs/`));
}

class OpenApiChecker {
  readonly document: Json = describeService();
  private readonly paths: PathEntry[];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<unknown, ValidateFunction>();

  constructor() {
    this.paths = Object.entries(this.document.paths as Record<string, Json>).map(([template, item]) => ({
      template,
      item,
      pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
    this.ajv.addKeyword('xml');
    this.ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
    this.ajv.addSchema({ $id: SCHEMAS_ID, $defs: forAjv(this.document.components.schemas) });
  }

  private validator(schema: Json): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(forAjv(schema));
      this.compiled.set(schema, validate);
    }
    return validate;
  }

  resolve(value: Json): Json {
    let current = value;
    while (current && typeof current.$ref === 'string') {
      current = (current.$ref as string)
        .slice(2)
        .split('/')
        .reduce((node: Json, key: string) => node?.[key], this.document);
      if (current === undefined) throw new Error(`unresolved reference ${value.$ref}`);
    }
    return current;
  }

  findPath(pathname: string): PathEntry | undefined {
    const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
    return this.paths.find((entry) => entry.pattern.test(path));
  }

  check(method: string, url: string, status: number, headers: Headers, body: string): void {
    const { pathname } = new URL(url);
    const what = `${method} ${pathname} → ${status}`;
    const fail = (problem: string): never => {
      throw new DescriptionMismatch(`${what}: ${problem} (docs: server/src/openapi/document.ts)`);
    };
    const entry = this.findPath(pathname);
    const operation = entry?.item[method.toLowerCase()];
    let response: Json;
    if (operation) {
      response = operation.responses[String(status)] ?? operation.responses.default;
      if (!response) fail(`status ${status} is not described for ${method} ${entry?.template}`);
    } else if (status === 401 && headers.get('www-authenticate') === 'Bearer') {
      // The token is checked before routing: an unknown path or method also answers 401 without one.
      response = this.resolve(this.document.paths['/UserService/users'].get.responses['401']);
    } else if (entry) {
      if (status !== 405)
        fail(`${method} is not described for ${entry.template}, so only a 405 may answer it`);
      response = this.resolve(this.document['x-undescribed-method']);
      const allowed = Object.keys(entry.item)
        .filter((key) => key !== 'parameters')
        .map((key) => key.toUpperCase())
        .sort();
      const allow = (headers.get('allow') ?? '')
        .split(',')
        .map((m) => m.trim())
        .sort();
      if (allow.join() !== allowed.join())
        fail(`Allow is "${headers.get('allow')}", described: ${allowed.join(', ')}`);
    } else {
      if (status !== 404) fail(`the path is not described, so only a 404 may answer it`);
      response = this.resolve(this.document['x-undescribed-path']);
    }
    response = this.resolve(response);

    for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const spec = this.resolve(header);
      const value = headers.get(name);
      if (value === null) {
        if (spec.required) fail(`the header ${name} is missing`);
        continue;
      }
      const validate = this.validator(spec.schema);
      if (!validate(value)) fail(`the header ${name}: ${this.ajv.errorsText(validate.errors)}`);
    }

    const content = response.content as Record<string, Json> | undefined;
    if (!content || method === 'HEAD') {
      if (body !== '') fail(`a body was sent where none is described: ${body.slice(0, 200)}`);
      counts[COUNT] = (counts[COUNT] ?? 0) + 1;
      return;
    }
    const contentType = headers.get('content-type') ?? '';
    const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    const media = content[mediaType];
    if (!media)
      fail(`the content type "${contentType}" is not one described (${Object.keys(content).join(', ')})`);
    const schema = this.resolve(media.schema);
    let value: unknown;
    if (mediaType === 'application/json') {
      try {
        value = JSON.parse(body);
      } catch {
        fail(`the body is not JSON: ${body.slice(0, 200)}`);
      }
    } else if (mediaType === 'application/xml') {
      // The write results and the operations element are the spec's exact bytes, with no declaration.
      const declared = body.startsWith(XML_DECLARATION);
      const bare = /^<(result|operations)>/.test(declared ? body.slice(XML_DECLARATION.length) : body);
      if (bare && declared) fail('a result or operations element carries an XML declaration');
      if (!bare && !declared) fail('the XML body does not start with the XML declaration');
      value = this.fromXml(body, schema, fail);
    } else value = body;
    const validate = this.validator(media.schema);
    if (!validate(value))
      fail(
        `the body does not match its schema: ${this.ajv.errorsText(validate.errors)}: ${body.slice(0, 300)}`,
      );
    counts[COUNT] = (counts[COUNT] ?? 0) + 1;
  }

  /** Reads an XML document into the value its schema describes, failing on any element it does not name. */
  private fromXml(body: string, schema: Json, fail: (problem: string) => never): unknown {
    let root: Element | undefined;
    try {
      root = (xml2js(body, { compact: false }) as Element).elements?.find((e) => e.type === 'element');
    } catch (err) {
      fail(`the body is not well-formed XML: ${(err as Error).message}`);
    }
    if (!root) return fail('the XML body has no root element');
    if (root.name !== schema.xml?.name)
      fail(`the root element is <${root.name}>, described: <${schema.xml?.name}>`);
    return this.elementValue(root, schema, fail);
  }

  private elementValue(element: Element, schemaRef: Json, fail: (problem: string) => never): unknown {
    const schema = this.resolve(schemaRef);
    const children = (element.elements ?? []).filter((e) => e.type === 'element');
    if (schema.type !== 'object') {
      if (children.length > 0) fail(`<${element.name}> holds elements where text is described`);
      const text = (element.elements ?? []).map((e) => String(e.text ?? e.cdata ?? '')).join('');
      if (schema.type === 'integer') return /^-?\d+$/.test(text) ? Number(text) : text;
      return text;
    }
    const value: Record<string, unknown> = {};
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    for (const child of children) {
      const name = String(child.name);
      const [key, propertyRef] =
        Object.entries(properties).find(([key, p]) => (this.resolve(p).xml?.name ?? key) === name) ?? [];
      if (!key) {
        value[name] = '(an element the description does not name)';
        continue;
      }
      const property = this.resolve(propertyRef);
      if (property.type === 'array') {
        const list = (value[key] as unknown[] | undefined) ?? [];
        list.push(this.elementValue(child, property.items, fail));
        value[key] = list;
      } else {
        if (key in value) fail(`<${name}> appears more than once in <${element.name}>`);
        value[key] = this.elementValue(child, property, fail);
      }
    }
    return value;
  }
}

let checker: OpenApiChecker | undefined;
/**
 * The count lives on globalThis: mocha loads its root hooks (which print it) apart from the specs, and
 * the two may get different instances of this module.
 */
const COUNT = Symbol.for('usersvc.openapi.checked');
const counts = globalThis as unknown as Record<symbol, number>;

/** One checker per test process (the description is built and its schemas compiled once). */
export function openApiChecker(): OpenApiChecker {
  checker ??= new OpenApiChecker();
  return checker;
}

export function checkedCount(): number {
  return counts[COUNT] ?? 0;
}
