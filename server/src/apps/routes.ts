import type { Request, Response } from 'restify';
import { NotFoundError } from '../errors.ts';
import type { GroupRoutes, ResourceGroup } from '../http/groups.ts';
import { sendJson } from '../http/send.ts';
import { answer, jsonOf, pathParameter, type RouteDoc, ref } from '../openapi/describe.ts';
import { type JsonObject, readJsonObject } from './json.ts';
import { parseAppId, parseResourceId } from './params.ts';

/** The body of a 202: the change is accepted, the resource is not returned. */
export const ACCEPTED_BODY = {};

const APP_ID_PARAMETER = pathParameter(
  'app_id',
  { type: 'string', pattern: '^[A-Za-z0-9._-]{1,100}$' },
  'Any 1-100 characters of A-Z a-z 0-9 . _ - (else 404).',
);
const INVALID_FIELD = 'A field is unknown, read-only, missing or invalid (`field` names it).';
const NO_APP = 'The app id is not valid (`not_found`).';

/** What a route of an app resource says itself; the answers every such route gives are added (AppResourceRoutes). */
export type AppRouteDoc = Omit<RouteDoc, 'answers'> & { answers?: RouteDoc['answers'] };

/**
 * A resource of every app, `kind`s at `/apps/:app_id/<kind>s` and `…/:<kind>_id`: a group with JSON
 * errors under /apps (so an unknown path under /apps answers JSON too). Its items are answered as
 * `render` shows them.
 */
export function appResource<T extends { id: string }>(
  kind: string,
  render: (item: T) => unknown,
  register: (routes: AppResourceRoutes<T>) => void,
): ResourceGroup {
  return {
    prefix: '/apps',
    representation: 'json',
    parameters: {
      app_id: APP_ID_PARAMETER,
      [`${kind}_id`]: pathParameter(`${kind}_id`, ref('ResourceId')),
    },
    routes: (group) => register(new AppResourceRoutes(group, kind, render)),
  };
}

/**
 * The routes of one app resource, in the same shape for every kind: ids parsed (404 when malformed),
 * JSON bodies read, an absent item (undefined) answered 404.
 */
export class AppResourceRoutes<T extends { id: string }> {
  private readonly collection: string;
  private readonly item: string;
  /** The OpenAPI schema of an item: `Domain`, `Worker`. */
  private readonly schema: string;

  constructor(
    private readonly group: GroupRoutes,
    private readonly kind: string,
    private readonly render: (item: T) => unknown,
  ) {
    this.collection = `/:app_id/${kind}s`;
    this.item = `${this.collection}/:${kind}_id`;
    this.schema = kind[0]?.toUpperCase() + kind.slice(1);
  }

  /** `doc` with the answers and errors of its kind of route (`doc`'s own first in each list). */
  private describe(doc: AppRouteDoc, answers: RouteDoc['answers'], errors: RouteDoc['errors']): RouteDoc {
    return { ...doc, answers: { ...answers, ...doc.answers }, errors: { ...errors, ...doc.errors } };
  }

  private get missing(): RouteDoc['errors'] {
    return { not_found: `No ${this.kind} has this id in the app (or the app id is not valid).` };
  }

  private full(text: string, headers?: Record<string, unknown>) {
    return answer(text, jsonOf(ref(this.schema)), headers);
  }

  /** GET/HEAD of the collection: 200 with the app's items. */
  list(load: (appId: string) => Promise<readonly T[]>, doc: AppRouteDoc): void {
    this.group.read(
      this.collection,
      async (req: Request, res: Response) => {
        sendJson(res, 200, (await load(parseAppId(req.params.app_id))).map(this.render));
      },
      this.describe(
        doc,
        { 200: answer(`The ${this.kind}s.`, jsonOf({ type: 'array', items: ref(this.schema) })) },
        { not_found: NO_APP },
      ),
    );
  }

  /** GET/HEAD of one item: 200 with it. */
  get(load: (appId: string, id: string) => Promise<T | undefined>, doc: AppRouteDoc): void {
    this.group.read(
      this.item,
      this.onItem(200, load),
      this.describe(doc, { 200: this.full(`The ${this.kind}.`) }, this.missing),
    );
  }

  /** POST to the collection: 201 with the new item and its Location. */
  create(make: (appId: string, body: JsonObject) => Promise<T>, doc: AppRouteDoc): void {
    this.group.post(
      this.collection,
      async (req: Request, res: Response) => {
        const appId = parseAppId(req.params.app_id);
        const item = await make(appId, await readJsonObject(req));
        sendJson(res, 201, this.render(item), { Location: `/apps/${appId}/${this.kind}s/${item.id}` });
      },
      this.describe(
        doc,
        { 201: this.full('Created: the full resource.', { Location: ref('Location', 'headers') }) },
        { not_found: NO_APP, invalid_params: INVALID_FIELD },
      ),
    );
  }

  /** PATCH of one item: 200 with it as changed (`changed`: what the 200 says). */
  patch(
    change: (appId: string, id: string, body: JsonObject) => Promise<T | undefined>,
    doc: AppRouteDoc & { changed: string },
  ): void {
    const { changed, ...rest } = doc;
    this.group.patch(
      this.item,
      this.onItem(200, async (appId, id, req) => change(appId, id, await readJsonObject(req))),
      this.describe(rest, { 200: this.full(changed) }, { ...this.missing, invalid_params: INVALID_FIELD }),
    );
  }

  /** DELETE of one item: 200 with it as it was just removed. */
  del(remove: (appId: string, id: string) => Promise<T | undefined>, doc: AppRouteDoc): void {
    this.group.del(
      this.item,
      this.onItem(200, remove),
      this.describe(doc, { 200: this.full(`Deleted: the ${this.kind} as it was.`) }, this.missing),
    );
  }

  /** DELETE of one item carried out later: 202 with ACCEPTED_BODY when `accept` found the item. */
  delLater(accept: (appId: string, id: string) => Promise<boolean>, doc: AppRouteDoc): void {
    this.group.del(
      this.item,
      this.onItem(202, async (appId, id) => ((await accept(appId, id)) ? ACCEPTED_BODY : undefined), false),
      this.describe(doc, { 202: answer('Accepted: `{}`.', jsonOf(ref('Accepted'))) }, this.missing),
    );
  }

  private onItem(
    status: number,
    handle: (appId: string, id: string, req: Request) => Promise<unknown>,
    rendered = true,
  ) {
    return async (req: Request, res: Response) => {
      const appId = parseAppId(req.params.app_id);
      const id = parseResourceId(req.params[`${this.kind}_id`], this.kind);
      const found = await handle(appId, id, req);
      if (found === undefined) throw new NotFoundError(`no ${this.kind} has the id ${id} in this app`);
      sendJson(res, status, rendered ? this.render(found as T) : found);
    };
  }
}
