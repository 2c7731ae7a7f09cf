/**
 * The status that accompanies `<result>failure</result>` (the spec leaves it open), by FAILURE_STATUS:
 * - `http` (default): 409 for a create of an existing id, 404 for an update or delete of an unknown one;
 * - `original`: 200 for every failure, as the original service answered: its JAX-RS clients ask for a
 *   String and turn any 4xx into an exception before they read the body.
 * docs/behaviour.md says why `http` is the default.
 */
export const FAILURE_STATUSES = {
  http: { create: 409, update: 404, delete: 404 },
  original: { create: 200, update: 200, delete: 200 },
} as const;

export type FailureStatusMode = keyof typeof FAILURE_STATUSES;
export type FailureStatuses = (typeof FAILURE_STATUSES)[FailureStatusMode];

export const FAILURE_STATUS_MODES = Object.keys(FAILURE_STATUSES) as FailureStatusMode[];

export function isFailureStatusMode(value: string): value is FailureStatusMode {
  return Object.hasOwn(FAILURE_STATUSES, value);
}
