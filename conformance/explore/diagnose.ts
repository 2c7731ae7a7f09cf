/**
 * The signature a defect is reported under: a shrunk sequence is run once more with the state read
 * back after every write (GET of its id, and the list for the others), and each write is judged by its
 * effect as well as by its answer (the model's judgeWrite). The first write whose effect or answer
 * disagrees names the defect (`PUT (new id) | state-change | other fields`, `write |
 * other-record-touched | another user`), so that one defect met at different later steps (a read that
 * misses a user, a PUT that succeeds on an id that should exist, …) is reported once. When no write
 * disagrees, the failing step's own signature stands (a defect of a read path).
 */

import { judgeWrite, type ReadBack, type SeenUser } from '../model/index.ts';
import { send } from './client.ts';
import { type Disagreement, initial, observed, type Signature, signatureKey } from './model.ts';
import { type Concrete, isWrite, type Operation } from './operations.ts';
import { goOn, poolIds, readBack, type SetAside, sendAndJudge, type Where } from './sequence.ts';

export interface Diagnosis {
  signature: Signature;
  message: string;
  /** The 0-based index of the operation it names. */
  at: number;
}

/** The write's id by GET, the others from the list (one request for all). */
async function afterWrite(where: Where, op: Concrete): Promise<ReadBack | undefined> {
  if (!('value' in op)) return undefined;
  const back: Record<string, SeenUser | null> = { ...(await readBack(where, [op.value])) };
  const list = await send(where.url, { method: 'GET', path: '/UserService/users', headers: {} });
  if (!list.observation) return undefined;
  const listed = observed(list.observation);
  if (listed.body.kind === 'users') {
    const users = listed.body.users;
    for (const id of poolIds(where.pool))
      if (id !== op.value) back[id] = users.find((u) => u.id === id) ?? null;
  }
  return back;
}

export async function diagnose(
  where: Where,
  ops: readonly Operation[],
  setAside: SetAside = new Set(),
): Promise<Diagnosis | 'known' | undefined> {
  let held = initial(where.scope === 'all' ? 'all' : poolIds(where.pool));
  let known = false;
  for (const [i, op] of ops.entries()) {
    const { concrete, exchange, judged } = await sendAndJudge(where, held, op);
    if (!judged || !exchange.observation) return undefined;
    let found: Disagreement[] = judged.disagreements;
    if (isWrite(concrete) && !judged.refused && held.state.collection) {
      const back = await afterWrite(where, concrete);
      if (back)
        found = judgeWrite(
          held.state,
          judged.model,
          observed(exchange.observation),
          judged.disagreements,
          back,
        );
    }
    const must = found.filter((d) => d.level === 'MUST');
    // A step that meets a known defect: what else it shows is that defect's doing too.
    const open = must.some((d) => setAside.has(signatureKey(d.signature))) ? [] : must;
    // A write that hit another user is named by that, rather than by what it then did to its own.
    const first = open.find((d) => d.signature.aspect === 'other-record-touched') ?? open[0];
    if (first) {
      return { signature: first.signature, message: first.message, at: i };
    }
    // A defect reported already: go on from what the implementation shows.
    if (must.length) known = true;
    held = must.length
      ? (
          await goOn(
            where,
            held,
            judged.held,
            { op: concrete, model: judged.model, observation: exchange.observation },
            must,
            setAside,
          )
        ).held
      : judged.held;
  }
  // Only defects reported already disagree: the failure is one of their consequences.
  return known ? 'known' : undefined;
}
