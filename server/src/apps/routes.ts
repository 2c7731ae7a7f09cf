import type { Request, Response } from 'restify';
import { NotFoundError } from '../errors.ts';
import type { GroupRoutes, ResourceGroup } from '../http/groups.ts';
import { sendJson } from '../http/send.ts';
import { type JsonObject, readJsonObject } from './json.ts';
import { parseAppId, parseResourceId } from './params.ts';

/** Every /apps resource: JSON errors, under /apps (so an unknown path under /apps answers JSON too). */
export function appResource(kind: string, register: (routes: AppResourceRoutes) => void): ResourceGroup {
  return {
    prefix: '/apps',
    representation: 'json',
    routes: (group) => register(new AppResourceRoutes(group, kind)),
  };
}

/** What a handler of one item gives back: the body to answer, or undefined when there is no such item (404). */
type Found = unknown;

/**
 * The routes of a collection of `kind`s per app, `/apps/:app_id/<kind>s` and `…/:<kind>_id`, in the
 * same shape for every kind: ids parsed (404 when malformed), JSON bodies read, absent items 404.
 */
export class AppResourceRoutes {
  private readonly collection: string;
  private readonly item: string;

  constructor(
    private readonly group: GroupRoutes,
    private readonly kind: string,
  ) {
    this.collection = `/:app_id/${kind}s`;
    this.item = `${this.collection}/:${kind}_id`;
  }

  /** GET/HEAD of the collection: 200 with the app's items. */
  list(load: (appId: string) => Promise<unknown>): void {
    this.group.read(this.collection, async (req: Request, res: Response) => {
      sendJson(res, 200, await load(parseAppId(req.params.app_id)));
    });
  }

  /** GET/HEAD of one item: 200 with it. */
  get(load: (appId: string, id: string) => Promise<Found>): void {
    this.group.read(this.item, this.onItem(200, load));
  }

  /** POST to the collection: 201 with the new item and its Location. */
  create<T extends { id: string }>(
    make: (appId: string, body: JsonObject) => Promise<T>,
    render: (item: T) => unknown,
  ): void {
    this.group.post(this.collection, async (req: Request, res: Response) => {
      const appId = parseAppId(req.params.app_id);
      const item = await make(appId, await readJsonObject(req));
      sendJson(res, 201, render(item), { Location: `/apps/${appId}/${this.kind}s/${item.id}` });
    });
  }

  /** PATCH of one item: 200 with it as changed. */
  patch(change: (appId: string, id: string, body: JsonObject) => Promise<Found>): void {
    this.group.patch(
      this.item,
      this.onItem(200, async (appId, id, req) => change(appId, id, await readJsonObject(req))),
    );
  }

  /** DELETE of one item, answered with `status` and what `remove` gives back. */
  del(status: number, remove: (appId: string, id: string) => Promise<Found>): void {
    this.group.del(this.item, this.onItem(status, remove));
  }

  private onItem(status: number, handle: (appId: string, id: string, req: Request) => Promise<Found>) {
    return async (req: Request, res: Response) => {
      const appId = parseAppId(req.params.app_id);
      const id = parseResourceId(req.params[`${this.kind}_id`], this.kind);
      const body = await handle(appId, id, req);
      if (body === undefined) throw new NotFoundError(`no ${this.kind} has the id ${id} in this app`);
      sendJson(res, status, body);
    };
  }
}
