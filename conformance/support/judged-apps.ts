/**
 * Section B: the APP-* rules' exchanges, judged through the model as the explorer judges them
 * (model/held.ts stepHeld, explore/sequence.ts), so that a section B defect a rule meets carries the
 * signature the explorer reports it under.
 */

import {
  appPath,
  createdId,
  type Disagreement,
  type Held,
  is2xx,
  named,
  type Observed,
  type Operation,
  removed,
  removing,
  stepHeld,
} from '../model/index.ts';
import type { Api, Reply } from './http.ts';
import { modelOf, observed } from './judged.ts';
import { ASYNC_TIMEOUT_MS, served, stillServedText, untilRemoved } from './removal.ts';

/** The model's section B operations. */
export type AppOp = Extract<
  Operation,
  {
    kind:
      | 'domain-create'
      | 'domain-list'
      | 'domain-get'
      | 'domain-update'
      | 'domain-delete'
      | 'worker-create'
      | 'worker-list'
      | 'worker-get'
      | 'worker-delete';
  }
>;

/** The request of a section B operation (the fixtures' create, README "Section B fixtures"). */
export function sendApp(api: Api, op: AppOp): Promise<Reply> {
  switch (op.kind) {
    case 'domain-create':
      return api.json('POST', appPath(op.app, 'domains'), { hostname: op.hostname });
    case 'worker-create':
      return api.json('POST', appPath(op.app, 'workers'), { command: op.command });
    case 'domain-list':
      return api.get(appPath(op.app, 'domains'));
    case 'worker-list':
      return api.get(appPath(op.app, 'workers'));
    case 'domain-get':
      return api.get(appPath(op.app, 'domains', op.id));
    case 'worker-get':
      return api.get(appPath(op.app, 'workers', op.id));
    case 'domain-update':
      return api.json('PATCH', appPath(op.app, 'domains', op.id), { hostname: op.hostname });
    case 'domain-delete':
      return api.send('DELETE', appPath(op.app, 'domains', op.id));
    case 'worker-delete':
      return api.send('DELETE', appPath(op.app, 'workers', op.id));
  }
}

/**
 * One section B answer judged on `state`: the first MUST disagreement (as the explorer names a failing
 * step by its first: one answer, one defect), and the state to go on from (a create's resource learnt
 * from its answer, model adopt).
 */
export function judgeAppAnswer(held: Held, op: AppOp, seen: Observed): { held: Held; found: Disagreement[] } {
  const judged = stepHeld(held, op, seen);
  const [first] = judged.disagreements.filter((d) => d.level === 'MUST');
  return { held: judged.held, found: first ? [first] : [] };
}

export interface AppStep {
  reply: Reply;
  observed: Observed;
  found: Disagreement[];
  /** The id a create was answered with (what the model learnt), when it carried one. */
  id?: string;
}

/** Sends one section B operation, judges its answer with the model and records what disagrees. */
export async function stepApp(api: Api, op: AppOp): Promise<AppStep> {
  const reply = await sendApp(api, op);
  return judgeApp(api, op, reply);
}

/** An answer to a section B operation the rule sent itself, judged as stepApp judges it. */
export function judgeApp(api: Api, op: AppOp, reply: Reply): AppStep {
  const model = modelOf(api.log);
  const seen = observed(reply);
  const judged = judgeAppAnswer(model.held(api.baseUrl), op, seen);
  model.add(judged.found, reply);
  model.keep(api.baseUrl, judged.held);
  const id = op.kind === 'domain-create' || op.kind === 'worker-create' ? createdId(seen) : undefined;
  return {
    reply,
    observed: seen,
    found: judged.found,
    ...(id === undefined || !is2xx(reply.status) ? {} : { id }),
  };
}

/**
 * B-6: a worker whose DELETE was accepted is eventually no longer served. It is read until it is not
 * (support/removal.ts, the explorer's wait too), for at most `timeoutMs` (CONFORMANCE_ASYNC_TIMEOUT_MS by
 * default), never for a fixed time; still served then is `worker removal | state-change | still served`,
 * as the explorer reports it. Returns the last read.
 */
export async function awaitRemoval(
  api: Api,
  app: string,
  id: string,
  timeoutMs = ASYNC_TIMEOUT_MS,
): Promise<{ reply: Reply; ms: number }> {
  const model = modelOf(api.log);
  const op: AppOp = { kind: 'worker-get', app, id };
  const { last: reply, ms } = await untilRemoved(
    () => sendApp(api, op),
    (r) => r.status,
    timeoutMs,
  );
  const wasRemoving = removing(model.held(api.baseUrl), app, id);
  judgeApp(api, op, reply);
  if (!wasRemoving) return { reply, ms };
  if (served(reply.status))
    model.add([named('workerStillServed', stillServedText(id, ms, 'the suite'))], reply);
  else {
    // Seen carried out: the model no longer holds the worker.
    model.keep(api.baseUrl, removed(model.held(api.baseUrl), app, id));
  }
  return { reply, ms };
}
