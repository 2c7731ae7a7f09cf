/**
 * The defects the suite knows by name, each once, as the server's error catalogue lists its codes: the
 * one signature every rule and the explorer report it under (so that the report groups them into one
 * defect), and the report's title where the signature alone would not read well (report/defects.ts).
 * The judging code names such a defect from here, with a message of its own, never by spelling it again.
 */
import { type Disagreement, disagreement, type Signature } from './signature.ts';

interface NamedDefect {
  readonly signature: Signature;
  /** The defect's title in the report; without one, report/defects.ts words the signature. */
  readonly title?: string;
  /** A SHOULD defect warns; MUST when not said. */
  readonly level?: 'SHOULD';
}

export const NAMED_DEFECTS = {
  /** A write answered success whose change is missing, and holds when sent again. */
  lostUpdate: {
    signature: { operation: 'write', aspect: 'lost-update', seen: 'a write answered success was lost' },
    title: 'lost update: a write answered success under concurrent writes is not stored',
  },
  /**
   * Concurrent writes left the service failing for good: reads of the list after them, spread over
   * time, all fail (support/judged.ts listFailsForGood, for the rules and the explorer alike).
   */
  corrupted: {
    signature: {
      operation: 'service',
      aspect: 'corrupted',
      seen: 'requests fail for good after concurrent writes',
    },
    title: 'state corrupted by concurrent writes: requests fail for good afterwards',
  },
  /**
   * A server error (5xx) answered to a write among concurrent writes, where later reads are served again:
   * a failure under concurrency, not a corruption for good (that is `corrupted`).
   */
  serverErrorUnderConcurrentWrites: {
    signature: { operation: 'concurrent writes', aspect: 'status', seen: 'server error (5xx)' },
    title: 'server errors (5xx) under concurrent writes; later requests are served',
  },
  /** A write that changed or removed a user it does not address. */
  otherRecordTouched: {
    signature: { operation: 'write', aspect: 'other-record-touched', seen: 'another user' },
    title: 'a write changes or removes another user than the one it addresses',
  },
  /**
   * A-R3.1: PUT of an id whose user a DELETE removed answered failure and stored nothing: the deleted id
   * stays reserved. The refusal's cause, seen in what the model holds (the id deleted before), named once
   * rather than as what POST does or as an input accepted once and refused later.
   */
  deletedIdReserved: {
    signature: { operation: 'PUT of a deleted id', aspect: 'result-word', seen: 'failure' },
    title: 'a deleted id stays reserved: PUT of it answers failure and stores nothing',
  },
  /**
   * A-R3.1: PUT of a new id answered failure and stored nothing while another user has the same name and
   * profession: users told apart by their fields rather than by their id.
   */
  identityByFields: {
    signature: {
      operation: 'PUT (new id)',
      aspect: 'state-change',
      seen: 'refused: another user has the same name and profession',
    },
    title: 'PUT of a new id is refused when another user has the same name and profession',
  },
  /**
   * A write that changed or removed the first user of the list, not the one it addresses (an equality
   * that always holds: the first user matches any id). A case of otherRecordTouched, named by its cause.
   */
  firstUserTouched: {
    signature: { operation: 'write', aspect: 'other-record-touched', seen: 'the first user of the list' },
    title: 'writes act on the first user of the list, not on the one they address',
  },
  /**
   * A DELETE answered success whose user reads still show, and gone once the next write arrived (that
   * write judged as the spec says on the state without the user): one defect, the DELETE's removal made
   * late (model/late.ts), not a DELETE that does nothing nor a later write that answers wrongly.
   */
  removedLate: {
    signature: {
      operation: 'DELETE (existing id)',
      aspect: 'state-change',
      seen: 'removed only at the next write',
    },
    title: 'DELETE answers success but removes the user only when the next write arrives',
  },
  /** The same of a PUT of a new id: answered success, stored only when the next write arrived. */
  storedLate: {
    signature: { operation: 'PUT (new id)', aspect: 'state-change', seen: 'stored only at the next write' },
    title: 'PUT answers success but stores the user only when the next write arrives',
  },
  /**
   * A-R3.3, RES-USER-2: PUT of an existing id stored a second user with that id beside the first (an
   * "already there?" check that compares whole users, not ids): the list shows the id twice.
   */
  secondUserSameId: {
    signature: {
      operation: 'PUT (existing id)',
      aspect: 'state-change',
      seen: 'adds a second user with the same id',
    },
    title: 'PUT of an existing id adds a second user with the same id',
  },
  /** B-6: a worker whose DELETE was accepted (202) still served when the wait is over. */
  workerStillServed: {
    signature: { operation: 'worker removal', aspect: 'state-change', seen: 'still served' },
  },
  /** A restart that did not keep the collection as it was (persistence: a SHOULD). */
  stateNotKept: {
    signature: { operation: 'restart', aspect: 'state-change', seen: 'state not kept' },
    level: 'SHOULD',
  },
  /** SVC-11: the first read of a new collection without the default user. */
  noDefaultUser: {
    signature: { operation: 'first read', aspect: 'default-user', seen: 'no default user' },
  },
  /** SVC-11: the first read of a new collection shows users besides the default user. */
  usersBesideDefault: {
    signature: { operation: 'first read', aspect: 'default-user', seen: 'users besides the default user' },
  },
  /** SVC-11: a read of an emptied collection brings the default user back. */
  defaultBack: {
    signature: {
      operation: 'read of an emptied collection',
      aspect: 'default-user',
      seen: 'the default user comes back',
    },
  },
  /**
   * SVC-7: a write's user stored with "+" for each space its form sent (a space is written "+" in a
   * form): the form decoder's cause, for PUT and POST alike, named once (model/effects.ts).
   */
  formPlusKept: {
    signature: { operation: 'form', aspect: 'state-change', seen: '"+" stored, not read as a space' },
    title: 'form decoding keeps "+" instead of reading it as a space',
  },
  /** A write whose name and profession are stored without the white space sent at either end. */
  textTrimmed: {
    signature: { operation: 'write', aspect: 'state-change', seen: 'text stored trimmed' },
    title: 'name and profession are stored trimmed of the white space sent at either end',
  },
  /** A lying reader (model/readers.ts): GET by id serves another user than the one its id names. */
  getServesAnotherUser: {
    signature: { operation: 'GET by id', aspect: 'state-change', seen: 'serves another user' },
    title: 'GET by id serves another user than the one whose id it is asked for',
  },
  /** A lying reader (model/readers.ts): GET by id serves a user as it was before a POST changed it. */
  getStale: {
    signature: {
      operation: 'GET by id',
      aspect: 'state-change',
      seen: 'stale: serves a user as it was before a POST',
    },
    title: 'GET by id serves a user as it was before a POST changed it (a stale copy)',
  },
  /** A lying reader (model/readers.ts): the list shows a user as it was before a POST changed it. */
  listStaleAfterPost: {
    signature: {
      operation: 'GET list',
      aspect: 'state-change',
      seen: 'stale: shows a user as it was before a POST',
    },
    title: 'GET list shows a user as it was before a POST changed it (a stale list)',
  },
  /** A lying reader (model/readers.ts): the list still shows a user that DELETE removed. */
  listShowsDeleted: {
    signature: { operation: 'GET list', aspect: 'state-change', seen: 'shows a deleted user' },
    title: 'GET list still shows users that DELETE removed',
  },
  /** A lying reader (model/readers.ts): the list answered before a change is answered again after it. */
  listStale: {
    signature: {
      operation: 'GET list',
      aspect: 'state-change',
      seen: 'stale: leaves out users just written',
    },
    title: 'GET list answers a stale list: users just written are missing from it',
  },
  /** A lying reader (model/readers.ts): the list leaves out users whose ids are longer than the others'. */
  listMissesLongIds: {
    signature: { operation: 'GET list', aspect: 'state-change', seen: 'leaves out users with long ids' },
    title: 'GET list leaves out users with long ids, where it lists users with shorter ones',
  },
  /** A lying reader (model/readers.ts): the list leaves out users whose text holds a character outside ASCII. */
  listMissesNonAscii: {
    signature: {
      operation: 'GET list',
      aspect: 'state-change',
      seen: 'leaves out users with non-ASCII names',
    },
    title: 'GET list leaves out users whose name or profession holds a character outside ASCII',
  },
  /** A lying reader (model/readers.ts): the list shows one user per name, leaving out others of that name. */
  listOnePerName: {
    signature: {
      operation: 'GET list',
      aspect: 'state-change',
      seen: 'leaves out users whose name another user has',
    },
    title: 'GET list shows one user per name: users whose name another user has are left out',
  },
  /** A lying reader (model/readers.ts): HEAD of the list answers another status than GET of it. */
  headListStatus: {
    signature: { operation: 'HEAD list', aspect: 'status', seen: 'not the status of GET' },
    title: 'HEAD of the list answers another status than GET of the list',
  },
} as const satisfies Record<string, NamedDefect>;

export type DefectName = keyof typeof NAMED_DEFECTS;

/** A disagreement that is the named defect, in the words of the exchange that met it. */
export function named(name: DefectName, message: string): Disagreement {
  const defect: NamedDefect = NAMED_DEFECTS[name];
  const { operation, aspect, seen } = defect.signature;
  return disagreement(operation, aspect, seen, message, defect.level);
}

/**
 * A server error (5xx) among concurrent writes, named by what reads of the list after them showed:
 * `failingForGood` is what those reads answered when every one failed (support/judged.ts
 * listFailsForGood), else undefined. A 5xx is a 5xx; "for good" only when the later reads show it.
 * The rules and the explorer name it alike from here.
 */
export function serverErrorUnderConcurrency(
  answer: string,
  failingForGood: string | undefined,
): Disagreement {
  return failingForGood === undefined
    ? named(
        'serverErrorUnderConcurrentWrites',
        `${answer} among concurrent writes; GET of the list is served again after them`,
      )
    : named(
        'corrupted',
        `${answer} among concurrent writes; after them every read of the list failed: ${failingForGood}`,
      );
}

/** The report's title of a signature that is a named defect with one. */
export function namedTitle(s: Signature): string | undefined {
  for (const defect of Object.values(NAMED_DEFECTS) as NamedDefect[])
    if (
      defect.title &&
      defect.signature.operation === s.operation &&
      defect.signature.aspect === s.aspect &&
      defect.signature.seen === s.seen
    )
      return defect.title;
  return undefined;
}

/**
 * Two writes of one id at once both answered success where the spec lets one only (a second create,
 * a second delete): a check and a change that concurrent requests interleave. The hand-written race
 * rules (support/judged.ts) and the concurrent explorer name it alike.
 */
export const moreThanOneSuccess = (kind: 'PUT' | 'DELETE', message: string): Disagreement =>
  disagreement(`concurrent ${kind}s of one id`, 'state-change', 'more than one success', message);
