/**
 * Requests as both sides of the suite record and replay them: the rules (support/http.ts: an `Exchange`,
 * which the report shows with its curl line) and the explorer (explore/client.ts: an `ExchangeRequest`
 * timed, with the answer as the model reads it; its curl scripts). One request timeout for both. Pure,
 * without Playwright: the explorer runs on its own too.
 */

/**
 * How long one request may take, answer and body included, before it counts as unanswered: one bound
 * for the rules and the explorer, so both call the same implementation unanswering alike. 15 s, the
 * rules' (the README states it); the explorer had 10 s and nothing in it counts on that: its own time
 * bounds it, which a request in flight at the end overruns by one such wait at most.
 */
export const REQUEST_TIMEOUT_MS = 15_000;

/** A request as sent: enough to replay it (`curlLine`). */
export interface ExchangeRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** One request and its answer, as a report shows them: enough to read and to replay (`curl`). */
export interface Exchange {
  request: ExchangeRequest;
  response: {
    status: number;
    headers: Record<string, string>;
    body: string;
    /** The body's full length in bytes; `body` keeps at most `bodyLimit` of them. */
    bytes: number;
    truncated: boolean;
  };
  bodyLimit: number;
  curl: string;
}

export const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export interface CurlOptions {
  /**
   * The target's base URL: the line addresses `$BASE_URL` and the path after it, so that a script runs
   * against any instance.
   */
  base?: string;
  /**
   * A HEAD as the explorer reads it (support/raw.ts): on a connection the server closes, every byte after
   * the headers shown (`--head` would hide them; without a body, curl's complaint that the announced one
   * never came is silenced, and a server that keeps the connection open is left after 2 s).
   */
  headBytes?: boolean;
}

/** A curl command line that sends the same request (`-i`: the answer's status and headers too). */
export function curlLine(request: ExchangeRequest, options: CurlOptions = {}): string {
  const parts = ['curl', '-sS', '-i'];
  if (request.method === 'HEAD' && options.headBytes)
    parts.splice(1, 1, '-s', '--max-time', '2', '-X', 'HEAD', '-H', shellQuote('Connection: close'));
  else if (request.method === 'HEAD') parts.push('--head');
  else if (request.method !== 'GET' || request.body !== undefined) parts.push('-X', request.method);
  const { base } = options;
  if (base === undefined) parts.push(shellQuote(request.url));
  else {
    // The path and query, relative to the target.
    const path = request.url.startsWith(base)
      ? request.url.slice(base.length)
      : new URL(request.url).pathname;
    parts.push(`"$BASE_URL"${shellQuote(path)}`);
  }
  for (const [name, value] of Object.entries(request.headers))
    parts.push('-H', shellQuote(`${name}: ${value}`));
  if (request.body !== undefined) parts.push('--data-binary', shellQuote(request.body));
  return parts.join(' ');
}
