/**
 * How the suite creates section B resources, which the spec names no way to create: `POST
 * /apps/{app_id}/domains {"hostname"}` and `POST /apps/{app_id}/workers {"command"}` (README). An
 * implementation that does not answer such a create with 2xx is read as not serving section B: the APP-*
 * rules are skipped and the explorer keeps to section A, both with this reason, never a defect.
 */
export const FIXTURE_FIELD = { domains: 'hostname', workers: 'command' } as const;

export type FixtureKind = keyof typeof FIXTURE_FIELD;

/** Why section B is not checked, after a create of `kind` was answered `status`. */
export const sectionBNotServed = (kind: FixtureKind, status: number): string =>
  `section B fixture: POST /apps/{app_id}/${kind} {"${FIXTURE_FIELD[kind]}"} answered ${status}; the suite creates ${kind} that way (see README)`;
