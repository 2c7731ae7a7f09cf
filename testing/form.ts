/** The one form encoder of the tests and benches: a PUT's or POST's `application/x-www-form-urlencoded` body. */

export { FORM_TYPE } from '../server/src/http/form.ts';

/**
 * How names and values are written:
 * - 'form' (default): as a browser writes a form (URLSearchParams: a space as `+`, `!'()~` escaped);
 * - 'component': each through encodeURIComponent (a space as `%20`, `!'()*~` as they are);
 * - 'none': as given, byte for byte (the fuzz and hostile tests' raw `&`, `=`, `%` and controls).
 */
export type FormEncoding = 'form' | 'component' | 'none';

export type FormFields = Record<string, string | number> | Iterable<readonly [string, string | number]>;

/** `name=value&name=value` in the order given (an object's own order, or [name, value] pairs). */
export function formBody(fields: FormFields, { encode = 'form' }: { encode?: FormEncoding } = {}): string {
  const pairs: Array<[string, string]> = [];
  const entries = Symbol.iterator in fields ? fields : Object.entries(fields);
  for (const [name, value] of entries) pairs.push([name, String(value)]);
  if (encode === 'form') return new URLSearchParams(pairs).toString();
  const write = encode === 'component' ? encodeURIComponent : (text: string) => text;
  return pairs.map(([name, value]) => `${write(name)}=${write(value)}`).join('&');
}
