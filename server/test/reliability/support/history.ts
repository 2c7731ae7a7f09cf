/**
 * A client-side log of every operation on the users API and a checker for it.
 *
 * Every write carries a unique tag (name `n-<tag>`, profession `p-<tag>`), so any record read back
 * names the one operation that wrote it. Operations are intervals [start, end] in client time; a
 * server can only have applied an operation somewhere inside its interval. The checker is sound (it
 * reports nothing for a correct server) and catches: lost acknowledged writes, writes answered
 * failure or 503 that took effect, resurrected users, stale reads, two successful creates of one id
 * with no delete between them, torn records (name and profession from different writes), answers
 * that contradict every possible order, and unexpected statuses or error bodies.
 */
export type OpKind = 'create' | 'update' | 'delete' | 'read';

/**
 * ok: the answer the operation hoped for (200 success, or a read's 200/404);
 * rejected: the failure result (409 create, 404 update/delete);
 * unavailable: 503 with the service_unavailable body;
 * refused: the connection was refused (nothing reached the server);
 * indeterminate: the connection broke or timed out after sending (it may or may not have happened);
 * unexpected: any other answer (an anomaly by itself).
 */
export type Outcome = 'ok' | 'rejected' | 'unavailable' | 'refused' | 'indeterminate' | 'unexpected';

export interface Op {
  seq: number;
  client: number;
  kind: OpKind;
  userId: number;
  /** Unique tag of a write. */
  tag: string;
  start: number;
  end: number;
  outcome: Outcome;
  status: number;
  /** For reads answered 200: the tag of the record seen (or 'torn:…'); null for 404. */
  seen?: string | null;
  detail?: string;
}

export const ABSENT = 'absent';

export interface Anomaly {
  kind: string;
  op?: Op;
  detail: string;
}

function versionOf(op: Op): string {
  return op.kind === 'delete' ? ABSENT : op.tag;
}

export function userFieldsFor(tag: string): { name: string; profession: string } {
  return { name: `n-${tag}`, profession: `p-${tag}` };
}

/** The tag a stored record was written with, or `torn:…` when name and profession disagree. */
export function tagOfRecord(name: string, profession: string): string {
  const a = name.startsWith('n-') ? name.slice(2) : undefined;
  const b = profession.startsWith('p-') ? profession.slice(2) : undefined;
  return a !== undefined && a === b ? a : `torn:${name}|${profession}`;
}

export class History {
  readonly ops: Op[] = [];
  private seq = 0;

  nextSeq(): number {
    return ++this.seq;
  }

  add(op: Op): void {
    this.ops.push(op);
  }

  count(predicate: (op: Op) => boolean): number {
    let n = 0;
    for (const op of this.ops) if (predicate(op)) n++;
    return n;
  }

  /**
   * Checks every answer against every order the server could have applied the writes in, and the
   * final state (user id → tag, absent ids missing) against the log.
   */
  check(finalState: Map<number, string>, initial: (userId: number) => string = () => ABSENT): Anomaly[] {
    const anomalies: Anomaly[] = [];
    const byTag = new Map<string, Op>();
    const byUser = new Map<number, Op[]>();
    for (const op of this.ops) {
      if (op.kind !== 'read') byTag.set(op.tag, op);
      const list = byUser.get(op.userId) ?? [];
      if (list.length === 0) byUser.set(op.userId, list);
      list.push(op);
    }
    const explain = (version: string): string => {
      if (version === ABSENT) return 'absent';
      if (version.startsWith('torn:')) return `a torn record (${version.slice(5)})`;
      const writer = byTag.get(version);
      return writer
        ? `the ${writer.kind} #${writer.seq} answered ${writer.status || writer.outcome}`
        : `an unknown record ${version}`;
    };

    for (const [userId, ops] of byUser) {
      // Writes that may have taken effect: answered success, or with no answer at all.
      const effective = ops.filter(
        (op) => op.kind !== 'read' && (op.outcome === 'ok' || op.outcome === 'indeterminate'),
      );
      const possible = possibleVersions(effective, initial(userId));
      const hasPresent = (set: Set<string>) => [...set].some((v) => v !== ABSENT);

      for (const op of ops) {
        if (op.outcome === 'unexpected') {
          anomalies.push({
            kind: 'unexpected answer',
            op,
            detail: `${op.kind} of ${userId}: ${op.status} ${op.detail ?? ''}`,
          });
          continue;
        }
        if (op.outcome !== 'ok' && op.outcome !== 'rejected') continue;
        const set = possible(op.start, op.end, op);
        const label = `${op.kind} #${op.seq} of user ${userId} answered ${op.status}`;
        if (op.kind === 'read') {
          const seen = op.seen ?? ABSENT;
          if (!set.has(seen)) {
            anomalies.push({
              kind: seen === ABSENT ? 'read missed a user' : 'stale or impossible read',
              op,
              detail: `${label} saw ${explain(seen)}`,
            });
          }
        } else if (op.kind === 'create') {
          if (op.outcome === 'ok' ? !set.has(ABSENT) : !hasPresent(set)) {
            anomalies.push({ kind: 'create answer contradicts the log', op, detail: label });
          }
        } else if (op.outcome === 'ok' ? !hasPresent(set) : !set.has(ABSENT)) {
          anomalies.push({ kind: `${op.kind} answer contradicts the log`, op, detail: label });
        }
      }

      // No two successful creates of one id unless a delete may have come between them.
      const creates = ops
        .filter((op) => op.kind === 'create' && op.outcome === 'ok')
        .sort((a, b) => a.start - b.start);
      const mayHaveDeleted = anyOverlaps(effective.filter((op) => op.kind === 'delete'));
      for (let i = 1; i < creates.length; i++) {
        const a = creates[i - 1]!;
        const b = creates[i]!;
        if (!mayHaveDeleted(Math.min(a.start, b.start), Math.max(a.end, b.end))) {
          anomalies.push({
            kind: 'two successful creates of one id',
            op: b,
            detail: `creates #${a.seq} and #${b.seq} of user ${userId}`,
          });
        }
      }

      const finalVersion = finalState.get(userId) ?? ABSENT;
      const finalSet = possible(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
      if (!finalSet.has(finalVersion)) {
        const writer = byTag.get(finalVersion);
        const kind = finalVersion.startsWith('torn:')
          ? 'torn record'
          : writer &&
              (writer.outcome === 'rejected' ||
                writer.outcome === 'unavailable' ||
                writer.outcome === 'refused')
            ? `a write answered ${writer.outcome} took effect`
            : finalVersion === ABSENT
              ? 'lost write (user missing)'
              : writer
                ? 'lost update (an older write is final)'
                : 'unknown record';
        anomalies.push({
          kind,
          ...(writer ? { op: writer } : {}),
          detail: `user ${userId}: final state is ${explain(finalVersion)}; possible: ${[...finalSet].map(explain).join('; ')}`,
        });
      }
    }
    // Records for ids no operation touched.
    for (const [userId, version] of finalState) {
      if (!byUser.has(userId) && version !== initial(userId)) {
        anomalies.push({ kind: 'unknown record', detail: `user ${userId} holds ${version}, never written` });
      }
    }
    return anomalies;
  }
}

/** The first index in `sorted` whose key is not below `value` (`sorted` ascending by key). */
function lowerBound<T>(sorted: readonly T[], value: number, key: (item: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(sorted[mid]!) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The running maximum of `key` over `items`: element i is the largest key among items[0..i]. */
function runningMax<T>(items: readonly T[], key: (item: T) => number): number[] {
  const max: number[] = [];
  for (const item of items) max.push(Math.max(max.at(-1) ?? Number.NEGATIVE_INFINITY, key(item)));
  return max;
}

/**
 * The versions a read over [t0, t1] may see, given the writes that may have taken effect (answered
 * success, or unanswered): the initial version unless a write completed before t0; each write that
 * completed before t0 no earlier than the latest start among those (any of them may have been
 * applied last); and each write that had not completed by t0 and started before t1. `exclude`: the
 * operation being judged. Indexed by end and by start, so a load test's half a million operations
 * are checked in a second, not in a minute (every operation against every write was quadratic).
 */
export function possibleVersions(
  effective: readonly Op[],
  initialVersion: string,
): (t0: number, t1: number, exclude?: Op) => Set<string> {
  const acknowledged = effective.filter((op) => op.outcome === 'ok');
  const unanswered = effective.filter((op) => op.outcome !== 'ok');
  const byEnd = [...acknowledged].sort((a, b) => a.end - b.end);
  const byStart = [...acknowledged].sort((a, b) => a.start - b.start);
  const maxStartUpTo = runningMax(byEnd, (op) => op.start);
  const longest = acknowledged.reduce((max, op) => Math.max(max, op.end - op.start), 0);

  return (t0, t1, exclude) => {
    const versions = new Set<string>();
    const completed = lowerBound(byEnd, t0, (op) => op.end); // byEnd[0..completed) ended before t0
    if (completed === 0) versions.add(initialVersion);
    else {
      const latestStart = maxStartUpTo[completed - 1]!;
      for (let i = completed - 1; i >= 0 && byEnd[i]!.end >= latestStart; i--) {
        if (byEnd[i] !== exclude) versions.add(versionOf(byEnd[i]!));
      }
    }
    // Acknowledged writes still running at t0 started at most `longest` before it.
    for (let i = lowerBound(byStart, t0 - longest, (op) => op.start); i < byStart.length; i++) {
      const op = byStart[i]!;
      if (op.start >= t1) break;
      if (op.end >= t0 && op !== exclude) versions.add(versionOf(op));
    }
    for (const op of unanswered) if (op.start < t1 && op !== exclude) versions.add(versionOf(op));
    return versions;
  };
}

/** Whether any of `ops` overlaps the open interval (from, to): ends after `from` and starts before `to`. */
function anyOverlaps(ops: readonly Op[]): (from: number, to: number) => boolean {
  const byStart = [...ops].sort((a, b) => a.start - b.start);
  const maxEndUpTo = runningMax(byStart, (op) => op.end);
  return (from, to) => {
    const startedBefore = lowerBound(byStart, to, (op) => op.start);
    return startedBefore > 0 && maxEndUpTo[startedBefore - 1]! > from;
  };
}

/** Counts by a key, for printing. */
export function tally<T>(items: Iterable<T>, key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) {
    const k = key(item);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
