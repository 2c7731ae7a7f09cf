import { InvalidParamsError } from '../../errors.ts';
import { type JsonObject, rejectUnknownFields } from '../json.ts';

export const WORKER_SIZES = ['small', 'standard', 'large'] as const;
export type WorkerSize = (typeof WORKER_SIZES)[number];
export const DEFAULT_WORKER_SIZE: WorkerSize = 'standard';

/** `up` until a DELETE is accepted; `stopping` until the removal job deletes it (then 404). */
export type WorkerState = 'up' | 'stopping';

export interface Worker {
  id: string;
  command: string;
  size: WorkerSize;
  state: WorkerState;
  created_at: string;
  updated_at: string;
}

export const COMMAND_MAX = 1000;
const READ_ONLY = ['id', 'state', 'created_at', 'updated_at'] as const;
/** C0 controls other than tab, DEL, and C1 controls. */
function hasControlCharacter(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if ((code < 0x20 && code !== 0x09) || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

export function parseCommand(value: unknown): string {
  if (typeof value !== 'string') throw new InvalidParamsError('command', 'command must be a string');
  if (value.trim() === '') throw new InvalidParamsError('command', 'command must not be empty');
  if ([...value].length > COMMAND_MAX) {
    throw new InvalidParamsError('command', `command must be at most ${COMMAND_MAX} characters`);
  }
  if (hasControlCharacter(value))
    throw new InvalidParamsError('command', 'command must not contain control characters');
  return value;
}

export function parseSize(value: unknown): WorkerSize {
  if (typeof value !== 'string' || !(WORKER_SIZES as readonly string[]).includes(value)) {
    throw new InvalidParamsError('size', `size must be one of ${WORKER_SIZES.join(', ')}`);
  }
  return value as WorkerSize;
}

/** POST body: `{"command": …, "size"?: …}`; size defaults to `standard`. */
export function newWorkerFromBody(body: JsonObject): { command: string; size: WorkerSize } {
  rejectUnknownFields(body, ['command', 'size'], READ_ONLY);
  if (!('command' in body)) throw new InvalidParamsError('command', 'command is required');
  const command = parseCommand(body.command);
  const size = 'size' in body ? parseSize(body.size) : DEFAULT_WORKER_SIZE;
  return { command, size };
}

/** PATCH body: `{"size": …}`; the command of a running worker cannot be changed. */
export function sizeFromBody(body: JsonObject): WorkerSize {
  if ('command' in body)
    throw new InvalidParamsError('command', 'command cannot be changed; create a new worker');
  rejectUnknownFields(body, ['size'], READ_ONLY);
  if (!('size' in body)) throw new InvalidParamsError('size', 'size is required');
  return parseSize(body.size);
}
