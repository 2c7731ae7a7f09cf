/**
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
