/**
 * What happened when a request got no usable answer, named from the error of the HTTP client
 * (Playwright's call log says whether the status line had come: `← 200 OK`). Pure: the caller decides
 * what a kind means for the rule (time-bound kinds make it "could not finish", the others fail it).
 */
/** Requests that change nothing: sent again, once, when their connection closed before any answer (RFC 9112 9.3.1). */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export type TransportKind =
  /** Nothing came back within the bound. */
  | 'no answer'
  /** The status line and headers came, the body did not end within the bound. */
  | 'body did not end'
  /** Bytes came back that are not an HTTP answer. */
  | 'not HTTP'
  /** The connection closed after the answer began, before it ended. */
  | 'closed mid-answer'
  /** The connection closed (or was reset) before any answer. */
  | 'closed before answering'
  /** Nothing accepts connections there (any more). */
  | 'refused';

export interface TransportFailure {
  kind: TransportKind;
  text: string;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** Undefined when the error is not about the exchange with the implementation (a bug of the suite, say). */
export function transportFailure(
  error: unknown,
  request: string,
  timeoutMs: number,
): TransportFailure | undefined {
  const message = String((error as Error)?.message ?? error).replace(ANSI, '');
  const began = /^\s*- ← (.+)$/m.exec(message)?.[1]?.trim();
  const seconds = `${timeoutMs / 1000} s`;
  if (/Timeout \d+ms exceeded|timed out|TimeoutError|aborted due to timeout/i.test(message))
    return began
      ? {
          kind: 'body did not end',
          text: `body did not end: the answer to ${request} began (${began}), and its body did not end within ${seconds}`,
        }
      : { kind: 'no answer', text: `no answer within ${seconds} to ${request}` };
  if (/Parse Error|HPE_|HTTPParserError|does not match the HTTP/.test(message)) {
    const detail = /((?:Parse Error:|HTTPParserError)[^\n]*)/.exec(message)?.[1] ?? 'parse error';
    return {
      kind: 'not HTTP',
      text: `not HTTP: the answer to ${request} is not an HTTP answer (${detail.trim()})`,
    };
  }
  if (/\baborted\b|socket hang up|ECONNRESET|EPIPE|other side closed|premature close/i.test(message))
    return began
      ? {
          kind: 'closed mid-answer',
          text: `connection closed mid-answer: ${request} (after ${began}, before the body ended)`,
        }
      : { kind: 'closed before answering', text: `connection closed before any answer to ${request}` };
  if (/ECONNREFUSED/.test(message))
    return { kind: 'refused', text: `connection refused: nothing listens for ${request} any more` };
  return undefined;
}
