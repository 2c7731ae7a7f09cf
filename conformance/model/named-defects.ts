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
}

export const NAMED_DEFECTS = {
  /** A write answered success whose change is missing, and holds when sent again. */
  lostUpdate: {
    signature: { operation: 'write', aspect: 'lost-update', seen: 'a write answered success was lost' },
    title: 'lost update: a write answered success under concurrent writes is not stored',
  },
  /** Server errors under concurrent writes, or to every request after them. */
  corrupted: {
    signature: {
      operation: 'service',
      aspect: 'corrupted',
      seen: 'requests fail for good after concurrent writes',
    },
    title: 'state corrupted by concurrent writes: requests fail under them, or for good afterwards',
  },
  /** A write that changed or removed a user it does not address. */
  otherRecordTouched: {
    signature: { operation: 'write', aspect: 'other-record-touched', seen: 'another user' },
    title: 'a write changes or removes another user than the one it addresses',
  },
  /**
   * A write that changed or removed the first user of the list, not the one it addresses (an equality
   * that always holds: the first user matches any id). A case of otherRecordTouched, named by its cause.
   */
  firstUserTouched: {
    signature: { operation: 'write', aspect: 'other-record-touched', seen: 'the first user of the list' },
    title: 'writes act on the first user of the list, not on the one they address',
  },
  /** B-6: a worker whose DELETE was accepted (202) still served when the wait is over. */
  workerStillServed: {
    signature: { operation: 'worker removal', aspect: 'state-change', seen: 'still served' },
  },
} as const satisfies Record<string, NamedDefect>;

export type DefectName = keyof typeof NAMED_DEFECTS;

/** A disagreement that is the named defect, in the words of the exchange that met it. */
export function named(name: DefectName, message: string): Disagreement {
  const { operation, aspect, seen } = NAMED_DEFECTS[name].signature;
  return disagreement(operation, aspect, seen, message);
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
