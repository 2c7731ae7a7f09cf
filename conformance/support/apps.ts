/**
 * Section B fixtures. The spec names no way to create domains or workers; the suite assumes
 * `POST /apps/{app_id}/domains {"hostname"}` and `POST /apps/{app_id}/workers {"command"}` (see the
 * README) and skips the rules, with the reason, when an implementation cannot create them that way.
 */
import { sectionBNotServed } from '../model/fixtures.ts';
import { appPath } from '../model/formats.ts';
import { ExchangeFailure } from './failures.ts';
import { type Reply, randomText, show } from './http.ts';
import { type AppOp, stepApp } from './judged-apps.ts';
import type { RuleContext } from './rule.ts';

export { ISO_UTC, UUID } from '../model/formats.ts';
/** Read once, where the wait for a worker's removal is (support/removal.ts). */
export { ASYNC_TIMEOUT_MS } from './removal.ts';

export type Json = Record<string, unknown>;

export function newApp(): string {
  return randomText('conformance-app');
}

export function jsonOf(reply: Reply): unknown {
  try {
    return JSON.parse(reply.text);
  } catch {
    throw new ExchangeFailure(`the body is not JSON: ${show(reply)}`, reply.exchange);
  }
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const ok = (reply: Reply) => reply.status >= 200 && reply.status <= 299;

export interface Created {
  reply: Reply;
  body: Json;
  id: string;
  path: string;
  app: string;
}

export async function create(
  ctx: RuleContext,
  app: string,
  kind: 'domains' | 'workers',
  payload: Json,
): Promise<Created> {
  // Judged by the model (support/judged.ts): a create whose answer disagrees is a finding of the rule.
  const op: AppOp =
    kind === 'domains'
      ? { kind: 'domain-create', app, hostname: String(payload.hostname) }
      : { kind: 'worker-create', app, command: String(payload.command) };
  const { reply, id } = await stepApp(ctx.api, op);
  if (!ok(reply)) ctx.skip(sectionBNotServed(kind, reply.status));
  let body: unknown;
  try {
    body = JSON.parse(reply.text);
  } catch {
    body = undefined;
  }
  if (!isObject(body) || id === undefined) {
    // The rules about the create answer itself (APP-DOM-01, APP-WRK-01) fail on this; the others cannot go on.
    ctx.skip(
      `section B fixture: POST /apps/{app_id}/${kind} answered no object with an id, so the ${kind.slice(0, -1)} cannot be addressed: ${show(reply).slice(0, 200)}`,
    );
  }
  const path = appPath(app, kind, id as string);
  // Not judged (as the explorer's clean-up): the rule may have removed it already.
  ctx.cleanup(async () => {
    const removal = await ctx.api.send('DELETE', path);
    if (removal.status >= 500)
      throw new ExchangeFailure(
        `DELETE of the rule's own ${path} answered ${show(removal)}`,
        removal.exchange,
      );
  });
  return { reply, body: body as Json, id: id as string, path, app };
}

export function createDomain(
  ctx: RuleContext,
  app: string,
  hostname = `${randomText('c')}.conformance.example`,
) {
  return create(ctx, app, 'domains', { hostname });
}

export function createWorker(ctx: RuleContext, app: string) {
  return create(ctx, app, 'workers', { command: `conformance-${randomText('w')}` });
}
