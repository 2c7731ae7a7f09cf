import type { Request, Response } from 'restify';
import { NotFoundError } from '../errors.ts';
import type { GroupRoutes, ResourceGroup } from '../http/groups.ts';
import { sendJson } from '../http/send.ts';
import { type JsonObject, readJsonObject } from './json.ts';
import { parseAppId, parseResourceId } from './params.ts';

/** The body of a 202: the change is accepted, the resource is not returned. */
export const ACCEPTED_BODY = {};

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

  constructor(
    private readonly group: GroupRoutes,
    private readonly kind: string,
    private readonly render: (item: T) => unknown,
  ) {
    this.collection = `/:app_id/${kind}s`;
    this.item = `${this.collection}/:${kind}_id`;
  }

  /** GET/HEAD of the collection: 200 with the app's items. */
  list(load: (appId: string) => Promise<readonly T[]>): void {
    this.group.read(this.collection, async (req: Request, res: Response) => {
      sendJson(res, 200, (await load(parseAppId(req.params.app_id))).map(this.render));
    });
  }

  /** GET/HEAD of one item: 200 with it. */
  get(load: (appId: string, id: string) => Promise<T | undefined>): void {
    this.group.read(this.item, this.onItem(200, load));
  }

  /** POST to the collection: 201 with the new item and its Location. */
  create(make: (appId: string, body: JsonObject) => Promise<T>): void {
    this.group.post(this.collection, async (req: Request, res: Response) => {
      const appId = parseAppId(req.params.app_id);
      const item = await make(appId, await readJsonObject(req));
      sendJson(res, 201, this.render(item), { Location: `/apps/${appId}/${this.kind}s/${item.id}` });
    });
  }

  /** PATCH of one item: 200 with it as changed. */
  patch(change: (appId: string, id: string, body: JsonObject) => Promise<T | undefined>): void {
    this.group.patch(
      this.item,
      this.onItem(200, async (appId, id, req) => change(appId, id, await readJsonObject(req))),
    );
  }

  /** DELETE of one item: 200 with it as it was just removed. */
  del(remove: (appId: string, id: string) => Promise<T | undefined>): void {
    this.group.del(this.item, this.onItem(200, remove));
  }

  /** DELETE of one item carried out later: 202 with ACCEPTED_BODY when `accept` found the item. */
  delLater(accept: (appId: string, id: string) => Promise<boolean>): void {
    this.group.del(
      this.item,
      this.onItem(202, async (appId, id) => ((await accept(appId, id)) ? ACCEPTED_BODY : undefined), false),
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
