import type { Request, Response, Server } from 'restify';
import { NotFoundError } from '../errors.ts';
import { readBody, requireMediaType } from '../http/body.ts';
import { parseForm } from '../http/form.ts';
import { routeRead } from '../http/routes.ts';
import { sendXml } from '../http/send.ts';
import type { UserList } from './list.ts';
import { parseUserId, type User, userFromForm, userFromPathForm } from './model.ts';
import { renderOperations, renderResult, renderUser } from './render.ts';
import type { UserStore } from './store.ts';

const COLLECTION = '/UserService/users';
const ITEM = '/UserService/users/:userid';
const FORM = 'application/x-www-form-urlencoded';

/** Status that accompanies a failure result (the spec leaves it open; see README). */
const FAILURE_STATUS = { create: 409, update: 404, delete: 404 } as const;

async function readUserForm(req: Request): Promise<Array<[string, string]>> {
  requireMediaType(req, FORM);
  return parseForm(await readBody(req));
}

function pathId(req: Request): number {
  return parseUserId(String(req.params.userid));
}

export function registerUserRoutes(server: Server, store: UserStore, userList: UserList): void {
  const list = async (req: Request, res: Response) => userList.send(req, res);
  const getOne = async (req: Request, res: Response) => {
    const id = pathId(req);
    const user = await store.getUser(id);
    if (!user) throw new NotFoundError(`no user has the id ${id}`);
    sendXml(res, 200, renderUser(user));
  };
  const create = (user: User, res: Response) =>
    store.createUser(user).then((ok) => sendXml(res, ok ? 200 : FAILURE_STATUS.create, renderResult(ok)));
  const update = (user: User, res: Response) =>
    store.updateUser(user).then((ok) => sendXml(res, ok ? 200 : FAILURE_STATUS.update, renderResult(ok)));

  routeRead(server, COLLECTION, list);
  routeRead(server, ITEM, getOne);

  server.put(COLLECTION, async (req: Request, res: Response) =>
    create(userFromForm(await readUserForm(req)), res),
  );
  server.post(COLLECTION, async (req: Request, res: Response) =>
    update(userFromForm(await readUserForm(req)), res),
  );
  server.put(ITEM, async (req: Request, res: Response) => {
    const id = pathId(req);
    return create(userFromPathForm(await readUserForm(req), id), res);
  });
  server.post(ITEM, async (req: Request, res: Response) => {
    const id = pathId(req);
    return update(userFromPathForm(await readUserForm(req), id), res);
  });

  server.del(ITEM, async (req: Request, res: Response) => {
    const ok = await store.deleteUser(pathId(req));
    sendXml(res, ok ? 200 : FAILURE_STATUS.delete, renderResult(ok));
  });

  server.opts(COLLECTION, async (_req: Request, res: Response) => {
    sendXml(res, 200, renderOperations(), { Allow: 'GET, HEAD, PUT, POST, OPTIONS' });
  });
  server.opts(ITEM, async (req: Request, res: Response) => {
    pathId(req);
    sendXml(res, 200, renderOperations(), { Allow: 'GET, HEAD, PUT, POST, DELETE, OPTIONS' });
  });
}
