import type { Answer } from '../model/index.ts';

/**
 * What the explorer saw of one answer: status, Content-Type and body, as the client recorded them
 * (client.ts), as the rules' client records them too: the model reads it (model/observe.ts `observed`).
 */
export type Observation = Answer;

/** The media type of an answer, lower case, without parameters. */
export const mediaTypeOf = (obs: Observation): string | undefined =>
  obs.contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
