/**
 * Every operation of SPEC sections A and B, as data. Ids in section A operations are sent as written
 * (`007` is a writing of user 7); the model canonicalises them.
 */
export interface UserForm {
  id: string | number;
  /**
   * Undefined: the form lacks the field (A-R11: what the write answers is open). A user stored from it
   * has that field of the implementation's choice, but has it (RES-USER-1).
   */
  name?: string;
  profession?: string;
}

export type Operation =
  // --- section A: the XML user collection
  | { kind: 'list' }
  | { kind: 'head-list' }
  | { kind: 'options' }
  | { kind: 'get'; id: string | number }
  | { kind: 'put'; user: UserForm }
  | { kind: 'post'; user: UserForm }
  | { kind: 'delete'; id: string | number }
  /** A-R8: open. PUT or POST with the id in the path. */
  | { kind: 'put-by-path'; id: string | number; user: UserForm }
  | { kind: 'post-by-path'; id: string | number; user: UserForm }
  // --- section B: JSON resources (the suite's fixtures create them: README, "Section B fixtures")
  | { kind: 'domain-create'; app: string; hostname: string }
  | { kind: 'domain-list'; app: string }
  | { kind: 'domain-get'; app: string; id: string }
  | { kind: 'domain-update'; app: string; id: string; hostname: string }
  | { kind: 'domain-delete'; app: string; id: string }
  | { kind: 'worker-create'; app: string; command: string }
  | { kind: 'worker-list'; app: string }
  | { kind: 'worker-get'; app: string; id: string }
  | { kind: 'worker-delete'; app: string; id: string };

export type OperationKind = Operation['kind'];

export const WRITES: ReadonlySet<OperationKind> = new Set(['put', 'post', 'delete']);

/** The request line of an operation, as a report names it. */
export function requestLine(op: Operation): string {
  switch (op.kind) {
    case 'list':
      return 'GET /UserService/users';
    case 'head-list':
      return 'HEAD /UserService/users';
    case 'options':
      return 'OPTIONS /UserService/users';
    case 'get':
      return `GET /UserService/users/${op.id}`;
    case 'put':
      return `PUT /UserService/users (id=${op.user.id})`;
    case 'post':
      return `POST /UserService/users (id=${op.user.id})`;
    case 'delete':
      return `DELETE /UserService/users/${op.id}`;
    case 'put-by-path':
      return `PUT /UserService/users/${op.id}`;
    case 'post-by-path':
      return `POST /UserService/users/${op.id}`;
    case 'domain-create':
      return `POST /apps/${op.app}/domains`;
    case 'domain-list':
      return `GET /apps/${op.app}/domains`;
    case 'domain-get':
      return `GET /apps/${op.app}/domains/${op.id}`;
    case 'domain-update':
      return `PATCH /apps/${op.app}/domains/${op.id}`;
    case 'domain-delete':
      return `DELETE /apps/${op.app}/domains/${op.id}`;
    case 'worker-create':
      return `POST /apps/${op.app}/workers`;
    case 'worker-list':
      return `GET /apps/${op.app}/workers`;
    case 'worker-get':
      return `GET /apps/${op.app}/workers/${op.id}`;
    case 'worker-delete':
      return `DELETE /apps/${op.app}/workers/${op.id}`;
  }
}
