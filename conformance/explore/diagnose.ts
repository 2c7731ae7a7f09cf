/**
 * The signature a defect is reported under: a shrunk sequence is run once more with the state read
 * back after every write (GET of its id, and the list for the others), and each write is judged by its
 * effect as well as by its answer (the model's judgeWrite). The first write whose effect or answer
 * disagrees names the defect (`PUT (new id) | state-change | other fields`, `write |
 * other-record-touched | another user`), so that one defect met at different later steps (a read that
 * misses a user, a PUT that succeeds on an id that should exist, …) is reported once. When no write
 * disagrees, the failing step's own signature stands (a defect of a read path).
 */

import { unlessKnown } from '../model/findings.ts';
import { judgeWrite } from '../model/index.ts';
import { type Disagreement, initial, observed, type Signature } from './model.ts';
import { isWrite, type Operation } from './operations.ts';
import {
  goOn,
  poolIds,
  readBackChecked,
  removeFill,
  type SetAside,
  sendAndJudge,
  type Where,
} from './sequence.ts';

export interface Diagnosis {
  signature: Signature;
  level: Disagreement['level'];
  message: string;
  /** The 0-based index of the operation it names. */
  at: number;
}

/**
 * `level`: the level of the failure diagnosed. A MUST failure is named by MUST disagreements only (a
 * server error on the way does not rename it); a SHOULD failure by the first of either level.
 */
export async function diagnose(
  where: Where,
  ops: readonly Operation[],
  setAside: SetAside = new Set(),
  level: Disagreement['level'] = 'MUST',
): Promise<Diagnosis | 'known' | undefined> {
  const filled = Math.max(0, ...ops.map((op) => (op.kind === 'FILL' ? op.count : 0)));
  try {
    return await diagnoseSteps(where, ops, setAside, level);
  } finally {
    await removeFill(where, filled);
  }
}

async function diagnoseSteps(
  where: Where,
  ops: readonly Operation[],
  setAside: SetAside,
  level: Disagreement['level'],
): Promise<Diagnosis | 'known' | undefined> {
  let held = initial(where.scope === 'all' ? 'all' : poolIds(where.pool));
  let known = false;
  for (const [i, op] of ops.entries()) {
    const { concrete, exchange, judged } = await sendAndJudge(where, held, op);
    if (!judged || !exchange.observation) return undefined;
    let found: Disagreement[] = judged.disagreements;
    if (isWrite(concrete) && !judged.refused && held.state.collection) {
      const read = 'value' in concrete ? await readBackChecked(where, held, concrete.value, true) : undefined;
      // The whole list too: a refused PUT's cause may be a user the model does not hold (another id's).
      if (read)
        found = judgeWrite(
          held.state,
          judged.model,
          observed(exchange.observation),
          judged.disagreements,
          read.back,
          { causes: true, listed: read.listed ?? [] },
        );
    }
    const counted = found.filter((d) => d.level === 'MUST' || d.level === level);
    // A step that meets a known defect: what else it shows is that defect's doing too.
    const open = unlessKnown(setAside, counted);
    // A write that hit another user is named by that, rather than by what it then did to its own.
    const first =
      open.find((d) => d.signature.aspect === 'other-record-touched') ??
      open.find((d) => d.level === 'MUST') ??
      open[0];
    if (first) {
      return { signature: first.signature, level: first.level, message: first.message, at: i };
    }
    // A defect reported already: go on from what the implementation shows.
    if (counted.length) known = true;
    if (!counted.length) {
      held = judged.held;
      continue;
    }
    const went = await goOn(
      where,
      held,
      judged.held,
      { op: concrete, model: judged.model, observation: exchange.observation },
      counted,
      setAside,
    );
    // Past a state the model cannot hold, left by a defect reported already: nothing more to name.
    if (went.beyond) return 'known';
    held = went.held;
  }
  // Only defects reported already disagree: the failure is one of their consequences.
  return known ? 'known' : undefined;
}
