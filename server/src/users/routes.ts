import type { Request, Response } from 'restify';
import { NotFoundError } from '../errors.ts';
import { readBody, requireMediaType } from '../http/body.ts';
import { FORM_TYPE, parseForm } from '../http/form.ts';
import type { ResourceGroup } from '../http/groups.ts';
import { sendXml } from '../http/send.ts';
import { answer, formBody, pathParameter, type RouteDoc, ref, xmlOf } from '../openapi/describe.ts';
import { FAILURE_STATUSES, type FailureStatuses } from './failure-status.ts';
import type { UserList } from './list.ts';
import { parseUserId, type User, userFromForm, userFromPathForm } from './model.ts';
import { OPERATIONS_ELEMENT, renderResult, renderUser } from './render.ts';
import type { UserStore } from './store.ts';

const PREFIX = '/UserService/users';
const COLLECTION = '';
const ITEM = '/:userid';

/** The description documents the `http` statuses of failure results (the Result schema says `original`'s). */
const DESCRIBED_FAILURES = FAILURE_STATUSES.http;

const USER_ID_PARAMETER = pathParameter(
  'userid',
  { type: 'string', pattern: '^-?[0-9]{1,20}$' },
  'A user id (see UserId); anything else is 400 `invalid_id`.',
);

// PUT creates and POST updates, on the collection (id in the form) and on /{userid} (id in the path).
const createDoc = (operationId: string, summary: string, form: string): RouteDoc => ({
  operationId,
  summary,
  requestBody: formBody(form),
  answers: {
    200: answer('`success`: created.', xmlOf('Result')),
    [DESCRIBED_FAILURES.create]: answer('`failure`: a user with this id exists.', xmlOf('Result')),
  },
});
const updateDoc = (operationId: string, summary: string, form: string): RouteDoc => ({
  operationId,
  summary,
  requestBody: formBody(form),
  answers: {
    200: answer('`success`: updated.', xmlOf('Result')),
    [DESCRIBED_FAILURES.update]: answer('`failure`: no user has this id.', xmlOf('Result')),
  },
});
const operationsDoc =
  (operationId: string) =>
  ({ allow }: { allow: string }): RouteDoc => ({
    operationId,
    summary: 'The supported operations',
    open: true,
    answers: {
      200: answer(`The operations; Allow: ${allow}.`, xmlOf('Operations'), {
        Allow: ref('Allow', 'headers'),
      }),
    },
  });

async function readUserForm(req: Request): Promise<Array<[string, string]>> {
  requireMediaType(req, FORM_TYPE);
  return parseForm(await readBody(req));
}

function pathId(req: Request): number {
  return parseUserId(String(req.params.userid));
}

/** The XML user service of docs/SPEC.md; `failureStatus`: the statuses of failure results (FAILURE_STATUS). */
export function userRoutes(
  store: UserStore,
  userList: UserList,
  failureStatus: FailureStatuses = FAILURE_STATUSES.http,
): ResourceGroup {
  const list = async (req: Request, res: Response) => userList.send(req, res);
  const getOne = async (req: Request, res: Response) => {
    const id = pathId(req);
    const user = await store.getUser(id);
    if (!user) throw new NotFoundError(`no user has the id ${id}`);
    sendXml(res, 200, renderUser(user));
  };
  const create = (user: User, res: Response) =>
    store.createUser(user).then((ok) => sendXml(res, ok ? 200 : failureStatus.create, renderResult(ok)));
  const update = (user: User, res: Response) =>
    store.updateUser(user).then((ok) => sendXml(res, ok ? 200 : failureStatus.update, renderResult(ok)));

  return {
    prefix: PREFIX,
    representation: 'xml',
    parameters: { userid: USER_ID_PARAMETER },
    routes(users) {
      users.read(COLLECTION, list, {
        operationId: 'listUsers',
        summary: 'Every user',
        answers: { 200: answer('The users.', xmlOf('Users')) },
      });
      users.read(ITEM, getOne, {
        operationId: 'getUser',
        summary: 'One user',
        answers: { 200: answer('The user.', xmlOf('User')) },
        errors: { not_found: 'No user has this id (`not_found`).' },
      });
      users.put(
        COLLECTION,
        async (req: Request, res: Response) => create(userFromForm(await readUserForm(req)), res),
        createDoc('createUser', 'Create a user', 'UserForm'),
      );
      users.post(
        COLLECTION,
        async (req: Request, res: Response) => update(userFromForm(await readUserForm(req)), res),
        updateDoc('updateUser', 'Update a user', 'UserForm'),
      );
      users.put(
        ITEM,
        async (req: Request, res: Response) => {
          const id = pathId(req);
          return create(userFromPathForm(await readUserForm(req), id), res);
        },
        createDoc('createUserAt', 'Create the user with the id of the path', 'UserPathForm'),
      );
      users.post(
        ITEM,
        async (req: Request, res: Response) => {
          const id = pathId(req);
          return update(userFromPathForm(await readUserForm(req), id), res);
        },
        updateDoc('updateUserAt', 'Update the user with the id of the path', 'UserPathForm'),
      );
      users.del(
        ITEM,
        async (req: Request, res: Response) => {
          const ok = await store.deleteUser(pathId(req));
          sendXml(res, ok ? 200 : failureStatus.delete, renderResult(ok));
        },
        {
          operationId: 'deleteUser',
          summary: 'Delete a user',
          answers: {
            200: answer('`success`: deleted.', xmlOf('Result')),
            [DESCRIBED_FAILURES.delete]: answer('`failure`: no user has this id.', xmlOf('Result')),
          },
        },
      );
      // Allow lists the methods registered on the path (OPTIONS included: it is registered here).
      users.opts(
        COLLECTION,
        async (_req: Request, res: Response) => {
          sendXml(res, 200, OPERATIONS_ELEMENT, { Allow: users.allow(COLLECTION) });
        },
        operationsDoc('userOperations'),
      );
      users.opts(
        ITEM,
        async (req: Request, res: Response) => {
          pathId(req);
          sendXml(res, 200, OPERATIONS_ELEMENT, { Allow: users.allow(ITEM) });
        },
        operationsDoc('userItemOperations'),
      );
    },
  };
}
