/** What a Redis error means for a request: unavailable (503), refused (nothing applied), or perhaps applied (504). */

/** Also the Cluster's answers while a slot changes hands (nothing was executed: MOVED, CLUSTERDOWN…). */
const UNAVAILABLE_MESSAGE =
  /Connection is closed|Stream isn't writeable|Command timed out|ECONNREFUSED|ECONNRESET|ENOENT|EPIPE|ETIMEDOUT|LOADING|MISCONF|READONLY|shutting down|^MOVED |^ASK |CLUSTERDOWN|TRYAGAIN|EXECABORT|Too many Cluster redirections|Cluster isn't ready|None of startup nodes|Failed to refresh slots|Cluster is ended/i;

/** Redis refusing a change, by the start of its error message: nothing was applied. */
const REFUSALS: Array<[RegExp, string]> = [
  [/^OOM |OOM command not allowed/, 'Redis is out of memory (maxmemory reached)'],
  [/^MISCONF /, 'Redis cannot save to disk (MISCONF)'],
  [/^READONLY /, 'the Redis server is a read-only replica'],
  [/^NOREPLICAS /, 'Redis has fewer replicas than min-replicas-to-write'],
];

/**
 * Why Redis refused a change (OOM, MISCONF, READONLY, NOREPLICAS), also when the refusal came inside
 * a MULTI (ioredis then rejects EXEC with EXECABORT and the queued commands' errors as
 * `previousErrors`); undefined for any other error.
 */
export function writeRefusal(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const previous = (err as { previousErrors?: unknown[] }).previousErrors ?? [];
  const messages = [err.message, ...previous.map((e) => (e instanceof Error ? e.message : String(e)))];
  for (const [pattern, why] of REFUSALS) if (messages.some((m) => pattern.test(m))) return why;
  return undefined;
}

/** True for the errors ioredis raises when Redis is down, restarting, or cannot write. */
export function isRedisUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return (
    err.name === 'MaxRetriesPerRequestError' ||
    err.name === 'AbortError' ||
    UNAVAILABLE_MESSAGE.test(err.message)
  );
}

/**
 * True for the errors after which a command may have run on Redis although no reply came back: the
 * connection closed with the command already sent (ioredis rejects those with MaxRetriesPerRequestError
 * or AbortError and, with autoResendUnfulfilledCommands off, never resends them), or it timed out.
 * "Stream isn't writeable" (never sent) is not one of them.
 */
export function mayHaveBeenApplied(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return (
    err.name === 'MaxRetriesPerRequestError' ||
    err.name === 'AbortError' ||
    /Connection is closed|Command timed out|aborted due to connection close/i.test(err.message)
  );
}
