/**
 * What the explorer saw of one answer: status, Content-Type and body, as the client recorded them.
 * The model reads it (model.ts: `observed`, through the model's own `observe`).
 */
export interface Observation {
  status: number;
  /** The Content-Type header as sent, or undefined. */
  contentType: string | undefined;
  /** The body as it came (client.ts), decoded as UTF-8 with a BOM kept; of a HEAD answer, the bytes after its headers. */
  body: string;
}

/** The media type of an answer, lower case, without parameters. */
export const mediaTypeOf = (obs: Observation): string | undefined =>
  obs.contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
