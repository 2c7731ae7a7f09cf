/**
 * What a disagreement with the model is about, normalised so that one defect gives one signature
 * whichever rule meets it: the report groups failing rules into defects by it (report/defects.ts).
 */
export type Aspect =
  | 'status'
  | 'result-word'
  | 'media-type'
  | 'body-shape'
  | 'state-change'
  | 'other-record-touched'
  | 'default-user'
  | 'lost-update'
  | 'corrupted'
  | 'not-answered'
  /** A rule that failed without the model naming why (an assertion of its own): grouped by rule. */
  | 'unclassified';

export interface Signature {
  /** The operation and its situation (`PUT (new id)`), or what every such answer shares (`XML answer`, `write`). */
  operation: string;
  aspect: Aspect;
  /** What was seen, normalised: the wrong word, the media type, the effect (`does what POST does`). */
  seen: string;
}

export interface Disagreement {
  signature: Signature;
  /** The sentence a report shows: the cause, in the words of the exchange. */
  message: string;
  /** A SHOULD disagreement is a warning (a failure result answered 5xx). */
  level: 'MUST' | 'SHOULD';
}

/** The one text form of a signature (grouping key, annotation payload). */
export const signatureKey = (s: Signature): string => `${s.operation} | ${s.aspect} | ${s.seen}`;

export function disagreement(
  operation: string,
  aspect: Aspect,
  seen: string,
  message: string,
  level: 'MUST' | 'SHOULD' = 'MUST',
): Disagreement {
  return { signature: { operation, aspect, seen }, message, level };
}
