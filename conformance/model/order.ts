/**
 * The order search, for the rules and the explorer alike: which order of concurrent operations explains
 * their answers. Two searches:
 *
 * - `checkHistory`: linearizability of a history (the explorer's concurrent phase, section A);
 * - `bestExplanation`: of changes sent at once and reads after them, the order that explains the answers
 *   best, and its first disagreement (the rules' races of section B, the explorer's race rounds).
 *
 * Linearizability of a concurrent history against a sequential model: the Wing & Gong search with
 * Lowe's memoisation, as Porcupine implements it (a linked list of call and return events; a call is
 * tried as the next linearised operation when the model accepts its answer in the current state; a
 * (set of linearised operations, state) pair seen before is not explored again; a return met before its
 * call was linearised backtracks). Pure: no I/O, no clock.
 *
 * An operation whose answer never came is open-ended: its return is at infinity and the model accepts
 * any answer (it may take effect at any time after its call, or never).
 */

export interface HistoryOp<I, O> {
  client: number;
  /** When the request was sent and when its answer came (ms); `ret` is Infinity for no answer. */
  call: number;
  ret: number;
  input: I;
  /** undefined: no answer (open-ended). */
  output: O | undefined;
}

export interface SequentialModel<S, I, O> {
  init: S;
  /** The state after `input` answered `output`, or undefined when the model does not allow that answer. */
  step(state: S, input: I, output: O | undefined): S | undefined;
  key(state: S): string;
}

interface Node {
  op: number;
  isCall: boolean;
  time: number;
  prev: Node | undefined;
  next: Node | undefined;
  match: Node | undefined;
}

/** The events of a history, calls before returns at equal times (operations that touch overlap). */
function eventList<I, O>(ops: ReadonlyArray<HistoryOp<I, O>>): Node {
  const nodes: Node[] = [];
  ops.forEach((op, i) => {
    const call: Node = {
      op: i,
      isCall: true,
      time: op.call,
      prev: undefined,
      next: undefined,
      match: undefined,
    };
    const ret: Node = {
      op: i,
      isCall: false,
      time: op.ret,
      prev: undefined,
      next: undefined,
      match: undefined,
    };
    call.match = ret;
    nodes.push(call, ret);
  });
  nodes.sort((a, b) => a.time - b.time || (a.isCall === b.isCall ? a.op - b.op : a.isCall ? -1 : 1));
  const head: Node = {
    op: -1,
    isCall: false,
    time: -Infinity,
    prev: undefined,
    next: undefined,
    match: undefined,
  };
  let last = head;
  for (const node of nodes) {
    last.next = node;
    node.prev = last;
    last = node;
  }
  return head;
}

function lift(call: Node): void {
  const ret = call.match as Node;
  (call.prev as Node).next = call.next;
  if (call.next) call.next.prev = call.prev;
  (ret.prev as Node).next = ret.next;
  if (ret.next) ret.next.prev = ret.prev;
}

function unlift(call: Node): void {
  const ret = call.match as Node;
  (ret.prev as Node).next = ret;
  if (ret.next) ret.next.prev = ret;
  (call.prev as Node).next = call;
  if (call.next) call.next.prev = call;
}

export interface Verdict {
  ok: boolean;
  /** The longest linearisation found (indices into the history), to show how far it got. */
  longest: number[];
}

/** Whether the history has a linearisation the model accepts. */
export function checkHistory<S, I, O>(
  model: SequentialModel<S, I, O>,
  ops: ReadonlyArray<HistoryOp<I, O>>,
): Verdict {
  const head = eventList(ops);
  const linearized = new Uint8Array(ops.length);
  const cache = new Set<string>();
  const calls: Array<{ node: Node; state: S }> = [];
  let longest: number[] = [];
  let state = model.init;
  let entry = head.next;
  const cacheKey = (s: S) => `${Array.from(linearized).join('')}|${model.key(s)}`;
  while (head.next) {
    if (!entry) return { ok: false, longest }; // cannot happen: a return always precedes the end
    if (entry.isCall) {
      const op = ops[entry.op] as HistoryOp<I, O>;
      const next = model.step(state, op.input, op.output);
      if (next !== undefined) {
        linearized[entry.op] = 1;
        const k = cacheKey(next);
        if (!cache.has(k)) {
          cache.add(k);
          calls.push({ node: entry, state });
          if (calls.length > longest.length) longest = calls.map((c) => c.node.op);
          state = next;
          lift(entry);
          entry = head.next;
          continue;
        }
        linearized[entry.op] = 0;
      }
      entry = entry.next;
    } else {
      const top = calls.pop();
      if (!top) return { ok: false, longest };
      linearized[top.node.op] = 0;
      state = top.state;
      unlift(top.node);
      entry = top.node.next;
    }
  }
  return { ok: true, longest: calls.map((c) => c.node.op) };
}

/** Splits a history by a key (the id): with a model whose ids are independent, each part is checked alone. */
export function partition<I, O, T extends HistoryOp<I, O> = HistoryOp<I, O>>(
  ops: readonly T[],
  keyOf: (input: I) => string,
): Map<string, T[]> {
  const parts = new Map<string, T[]>();
  for (const op of ops) {
    const k = keyOf(op.input);
    parts.set(k, [...(parts.get(k) ?? []), op]);
  }
  return parts;
}

/**
 * A smaller history that is still not linearisable, as a witness: reads are dropped and writes made
 * open-ended (their answer ignored) one at a time while the history stays non-linearisable; both only
 * relax it, so what remains is non-linearisable because of the operations kept whole. Open-ended
 * writes that begin after every kept operation has returned are dropped (they can always go last).
 * `isRead`: the operation changes nothing in the model, whatever it answered.
 */
export function minimalWitness<S, I, O>(
  model: SequentialModel<S, I, O>,
  ops: ReadonlyArray<HistoryOp<I, O>>,
  dropsFreely: (op: HistoryOp<I, O>) => boolean,
): Array<HistoryOp<I, O> & { relaxed: boolean }> {
  let current: Array<HistoryOp<I, O> & { relaxed: boolean }> = ops.map((op) => ({ ...op, relaxed: false }));
  if (checkHistory(model, current).ok) throw new Error('the history is linearizable: no witness');
  // Later operations first: what comes after the failure is the first to go.
  for (let i = current.length - 1; i >= 0; i--) {
    const op = current[i] as HistoryOp<I, O> & { relaxed: boolean };
    const dropped = current.filter((_, j) => j !== i);
    if (dropsFreely(op) && !checkHistory(model, dropped).ok) {
      current = dropped;
      continue;
    }
    if (!op.relaxed) {
      const relaxed = current.map((o, j) =>
        j === i ? { ...o, ret: Infinity, output: undefined, relaxed: true } : o,
      );
      if (!checkHistory(model, relaxed).ok) current = relaxed;
    }
  }
  const kept = current.filter((o) => !o.relaxed);
  const lastReturn = Math.max(...kept.map((o) => o.ret));
  return current.filter((o) => !o.relaxed || o.call <= lastReturn);
}

// --- The best explanation of concurrent answers that no order explains

/** One answer judged in some position of an order: the state to go on from, and its disagreement, if any. */
export interface Judged<S, D> {
  state: S;
  found?: D;
}

export interface Explanation<S, D> {
  /** How many answers of the best order disagree (0: some order explains every answer). */
  count: number;
  /** The first disagreement of the best order: its position, the index of its answer (`changes`, then `after`) and what the judge said. */
  first?: { depth: number; index: number; found: D };
  /** The state after the best order. */
  state: S;
  /** The best order: indices into `changes`. */
  order: number[];
}

/**
 * Changes sent at once, then reads sent after them (`after`, in order): the order of the changes that
 * explains their answers best, by the judge of one answer (real-time order is not imposed, which can
 * only accept more). Each order is judged to its end, going on past a disagreeing answer from the state
 * the judge goes on from: the order with the fewest disagreeing answers explains them best, and of those
 * the one whose first disagreement comes latest (of orders alike, the first found, the changes taken in
 * the order given). An answer that disagrees in every position is then named, not the answers that an
 * order starting with another one makes wrong. The search stops at an order that explains every answer.
 *
 * Changes alike (`same`: the same operation with the same answer) are interchangeable: the orders are
 * searched over kinds of answers, not permutations of twenty; an outcome is remembered by the state
 * (`stateKey`) and the changes left.
 */
export function bestExplanation<S, C, D>(
  init: S,
  changes: readonly C[],
  after: readonly C[],
  judge: (state: S, change: C) => Judged<S, D>,
  keys: { same: (change: C) => string; state: (state: S) => string },
): Explanation<S, D> {
  const kinds: number[] = [];
  const kindOf: number[] = [];
  const counts: number[] = [];
  for (const [i, c] of changes.entries()) {
    const key = keys.same(c);
    const at = kinds.findIndex((k) => keys.same(changes[k] as C) === key);
    if (at >= 0) {
      counts[at] = (counts[at] ?? 0) + 1;
      kindOf.push(at);
    } else {
      kindOf.push(kinds.length);
      kinds.push(i);
      counts.push(1);
    }
  }
  type First = { depth: number; index: number; found: D };
  type Outcome = { count: number; first?: First; state: S; kinds: number[] };
  const better = (a: Outcome, b: Outcome | undefined) =>
    !b ||
    a.count < b.count ||
    (a.count === b.count &&
      (a.first?.depth ?? Number.POSITIVE_INFINITY) > (b.first?.depth ?? Number.POSITIVE_INFINITY));
  const memo = new Map<string, Outcome>();
  const search = (state: S, left: number[], depth: number): Outcome => {
    // The depth is the number of changes used, which `left` fixes: an outcome is the same whenever met.
    const key = JSON.stringify([keys.state(state), left]);
    const known = memo.get(key);
    if (known) return known;
    let best: Outcome | undefined;
    if (left.every((n) => n === 0)) {
      let s = state;
      let count = 0;
      let first: First | undefined;
      for (const [i, read] of after.entries()) {
        const judged = judge(s, read);
        if (judged.found !== undefined) {
          count++;
          first ??= { depth: depth + i, index: changes.length + i, found: judged.found };
        }
        s = judged.state;
      }
      best = { count, ...(first ? { first } : {}), state: s, kinds: [] };
    } else
      for (const [k, index] of kinds.entries()) {
        if (!left[k]) continue;
        const judged = judge(state, changes[index] as C);
        const rest = search(
          judged.state,
          left.map((n, j) => (j === k ? n - 1 : n)),
          depth + 1,
        );
        const outcome: Outcome =
          judged.found !== undefined
            ? {
                ...rest,
                count: rest.count + 1,
                first: { depth, index, found: judged.found },
                kinds: [k, ...rest.kinds],
              }
            : { ...rest, kinds: [k, ...rest.kinds] };
        if (better(outcome, best)) best = outcome;
        if (best?.count === 0) break;
      }
    const out = best as Outcome;
    memo.set(key, out);
    return out;
  };
  const result = search(init, counts, 0);
  // The order as indices into `changes`: the n-th use of a kind is its n-th change.
  const used = kinds.map(() => 0);
  const order = result.kinds.map((k) => {
    const n = used[k] ?? 0;
    used[k] = n + 1;
    return kindOf.map((kind, i) => (kind === k ? i : -1)).filter((i) => i >= 0)[n] as number;
  });
  return {
    count: result.count,
    ...(result.first ? { first: result.first } : {}),
    state: result.state,
    order,
  };
}
