/**
 * The rule catalogue: every check the suite makes, as data. Stable ids (never reuse or renumber one),
 * an RFC 2119 level, the section of SPEC.md it comes from, and the spec sentence it checks.
 *
 * - MUST: what SPEC.md states. A failure fails the run.
 * - SHOULD: sound HTTP practice the spec implies. A failure is a warning; the run still passes.
 * - INFO: what the spec leaves open ("not shown"). The suite records what the implementation does and
 *   never fails it.
 *
 * `needs` says what a rule requires beyond a running target: a fresh instance (empty collection) or a
 * restart. Without a way to get one (CONFORMANCE_START_COMMAND or the reference default), such a rule
 * is skipped with the reason, never passed.
 */
export type Level = 'MUST' | 'SHOULD' | 'INFO';

export interface Rule {
  id: string;
  level: Level;
  section: string;
  /** Short title shown in test names and reports. */
  title: string;
  /** The sentence of SPEC.md (or the practice) the rule checks. */
  spec: string;
  needs?: 'fresh' | 'restart';
}

export const SECTIONS = [
  'A. Collection and default user',
  'A.1 GET list',
  'A.2 GET by id',
  'A.3 PUT (create)',
  'A.4 POST (update)',
  'A.5 DELETE',
  'A.6 OPTIONS',
  'A.7 HEAD',
  'A. Representations: XML and forms',
  'A. Known test sequence',
  'A. Open points (recorded)',
  'B. Domains (JSON)',
  'B. Workers (JSON, asynchronous)',
  'HTTP practice',
] as const;
export type Section = (typeof SECTIONS)[number];

const r = (
  id: string,
  level: Level,
  section: Section,
  title: string,
  spec: string,
  needs?: Rule['needs'],
): Rule => (needs ? { id, level, section, title, spec, needs } : { id, level, section, title, spec });

export const RULES: readonly Rule[] = [
  // --- Collection
  r(
    'USR-COL-01',
    'MUST',
    'A. Collection and default user',
    'a fresh service lists exactly the default user, id 1',
    'GET list: on first use of an empty service it returns one user, the default one with id 1.',
    'fresh',
  ),
  r(
    'USR-COL-02',
    'MUST',
    'A. Collection and default user',
    'a first read by id on a fresh service serves the default user',
    'When the first read finds no collection, the service creates one holding a single default user with id 1 and then serves it.',
    'fresh',
  ),
  r(
    'USR-COL-03',
    'MUST',
    'A. Collection and default user',
    'the collection persists between requests',
    'The collection persists between requests.',
  ),
  r(
    'USR-COL-04',
    'SHOULD',
    'A. Collection and default user',
    'the collection survives a restart of the service',
    'The collection persists between requests (across a stop and start of the service).',
    'restart',
  ),
  r(
    'USR-COL-05',
    'INFO',
    'A. Collection and default user',
    'fields of the default user',
    'The default user has id 1; its name and profession are not shown.',
    'fresh',
  ),

  // --- GET list
  r(
    'USR-LIST-01',
    'MUST',
    'A.1 GET list',
    'GET list answers an XML list of user elements',
    'GET /UserService/users: application/xml, a list of user elements (id, name, profession).',
  ),
  r(
    'USR-LIST-02',
    'MUST',
    'A.1 GET list',
    'GET list returns every user of the collection with its fields',
    'GET list returns all users in the collection.',
  ),
  r(
    'USR-LIST-03',
    'INFO',
    'A.1 GET list',
    'name of the element wrapping the list, and the order',
    'Element name wrapping the list of users in the list response: not shown.',
  ),

  // --- GET by id
  r(
    'USR-GET-01',
    'MUST',
    'A.2 GET by id',
    'GET by id answers the user element with that id',
    'GET /UserService/users/{userid} returns the user whose id equals {userid} (application/xml, one user element).',
  ),
  r(
    'USR-GET-04',
    'MUST',
    'A.2 GET by id',
    'reads change nothing (GET, HEAD and OPTIONS of an unknown id create nothing)',
    'GET is read-only and safe.',
  ),
  r(
    'USR-GET-02',
    'SHOULD',
    'A.2 GET by id',
    'GET of an unknown id answers no user and no 5xx',
    'Sound practice: a read of a missing resource is a client-side outcome, not a user and not a server error.',
  ),
  r(
    'USR-GET-03',
    'INFO',
    'A.2 GET by id',
    'status and body of GET for an unknown id',
    'GET by id when no user has that id: not shown.',
  ),

  // --- PUT
  r(
    'USR-PUT-01',
    'MUST',
    'A.3 PUT (create)',
    'PUT of a new id answers the success result',
    'PUT creates a user from the form fields. If no user with that id exists, ... the body is the success result.',
  ),
  r(
    'USR-PUT-02',
    'MUST',
    'A.3 PUT (create)',
    'PUT of a new id appends the user with the submitted fields',
    'If no user with that id exists, the user is appended.',
  ),
  r(
    'USR-PUT-03',
    'MUST',
    'A.3 PUT (create)',
    'PUT of an existing id answers the failure result',
    'If a user with that id already exists, ... the body is the failure result.',
  ),
  r(
    'USR-PUT-04',
    'MUST',
    'A.3 PUT (create)',
    'PUT of an existing id changes nothing',
    'If a user with that id already exists, nothing changes.',
  ),
  r(
    'USR-PUT-05',
    'MUST',
    'A.3 PUT (create)',
    '50 concurrent PUTs of one new id: exactly one success',
    'PUT creates only when no user with that id exists (rule 3), whatever the concurrency.',
  ),
  r(
    'USR-PUT-06',
    'MUST',
    'A.3 PUT (create)',
    'repeating a PUT leaves the same state',
    'PUT and DELETE are idempotent in the sense that the resulting state is the same however many times they are called.',
  ),

  // --- POST
  r(
    'USR-POST-01',
    'MUST',
    'A.4 POST (update)',
    'POST of an existing id answers the success result',
    "POST updates. If a user with the form's id exists, ... the body is the success result.",
  ),
  r(
    'USR-POST-02',
    'MUST',
    'A.4 POST (update)',
    'POST replaces the user wholesale',
    'That user is replaced wholesale by the submitted id, name and profession.',
  ),
  r(
    'USR-POST-03',
    'MUST',
    'A.4 POST (update)',
    'POST of an unknown id answers the failure result',
    'If none exists, ... the body is the failure result.',
  ),
  r(
    'USR-POST-04',
    'MUST',
    'A.4 POST (update)',
    'POST of an unknown id changes nothing (creates no user)',
    'If none exists, nothing changes.',
  ),

  // --- DELETE
  r(
    'USR-DEL-01',
    'MUST',
    'A.5 DELETE',
    'DELETE of an existing id answers the success result',
    'DELETE removes the user whose id equals {userid}. If it existed, the body is the success result.',
  ),
  r(
    'USR-DEL-02',
    'MUST',
    'A.5 DELETE',
    'DELETE removes that user and only that user',
    'DELETE removes the user whose id equals {userid}.',
  ),
  r(
    'USR-DEL-03',
    'MUST',
    'A.5 DELETE',
    'DELETE of an unknown id answers the failure result',
    'If none exists, ... the body is the failure result.',
  ),
  r(
    'USR-DEL-04',
    'MUST',
    'A.5 DELETE',
    'DELETE of an unknown id changes nothing',
    'If none exists, nothing changes.',
  ),
  r(
    'USR-DEL-05',
    'MUST',
    'A.5 DELETE',
    'repeating a DELETE leaves the same state',
    'PUT and DELETE are idempotent in the sense that the resulting state is the same however many times they are called.',
  ),

  // --- OPTIONS
  r(
    'USR-OPT-01',
    'MUST',
    'A.6 OPTIONS',
    'OPTIONS answers an application/xml operations element',
    'OPTIONS /UserService/users: application/xml, operations element.',
  ),
  r(
    'USR-OPT-02',
    'MUST',
    'A.6 OPTIONS',
    'the operations element reads exactly "GET, PUT, POST, DELETE"',
    'The OPTIONS response is the XML element <operations>GET, PUT, POST, DELETE</operations>.',
  ),
  r(
    'USR-OPT-03',
    'INFO',
    'A.6 OPTIONS',
    'Allow header of OPTIONS',
    'Headers of the OPTIONS answer: not shown.',
  ),

  // --- HEAD
  r(
    'USR-HEAD-01',
    'MUST',
    'A.7 HEAD',
    'HEAD of the list answers without a body',
    'HEAD /UserService/users: headers only, no body.',
  ),
  r(
    'USR-HEAD-02',
    'MUST',
    'A.7 HEAD',
    "HEAD answers the status and headers of GET's list",
    'HEAD returns the headers that a GET of the list would return, without a body.',
  ),
  r(
    'USR-HEAD-03',
    'SHOULD',
    'A.7 HEAD',
    "HEAD of a user by id answers GET's status without a body",
    'HTTP practice (RFC 9110 9.3.2): HEAD is GET without the content, on every resource that answers GET.',
  ),

  // --- Representations
  r(
    'USR-XML-01',
    'MUST',
    'A. Representations: XML and forms',
    'every answer of section A is application/xml',
    'Representations are XML; the response payloads of rules 1-6 are application/xml (parameters tolerated).',
  ),
  r(
    'USR-XML-02',
    'MUST',
    'A. Representations: XML and forms',
    'hostile text (< & ]]> quotes) stays well-formed and round-trips',
    'Representations are XML: name and profession are free text, so the documents stay well-formed for any text.',
  ),
  r(
    'USR-XML-03',
    'MUST',
    'A. Representations: XML and forms',
    'non-ASCII text round-trips',
    'name and profession are free text.',
  ),
  r(
    'USR-FORM-01',
    'MUST',
    'A. Representations: XML and forms',
    'form decoding: "+" is a space',
    'Write operations receive form-encoded input (application/x-www-form-urlencoded).',
  ),
  r(
    'USR-FORM-02',
    'MUST',
    'A. Representations: XML and forms',
    'form decoding: percent-escapes (%2B %26 %3D %25)',
    'Write operations receive form-encoded input (application/x-www-form-urlencoded).',
  ),
  r(
    'USR-FORM-03',
    'MUST',
    'A. Representations: XML and forms',
    'form decoding: percent-encoded UTF-8',
    'Write operations receive form-encoded input (application/x-www-form-urlencoded).',
  ),
  r(
    'USR-XML-04',
    'INFO',
    'A. Representations: XML and forms',
    'Content-Type and XML declaration of the answers',
    'Media type parameters and the XML declaration: not shown.',
  ),

  // --- Known sequence
  r(
    'USR-SEQ-01',
    'MUST',
    'A. Known test sequence',
    'the known test sequence holds on a fresh service',
    'List is non-empty; GET id 1 returns id 1; POST id 1 with new name and profession returns success; PUT id 2 returns success; DELETE id 2 returns success.',
    'fresh',
  ),

  // --- Open points
  r(
    'USR-OPEN-01',
    'INFO',
    'A. Open points (recorded)',
    'statuses accompanying the success result',
    'The status of a successful write: not shown.',
  ),
  r(
    'USR-OPEN-02',
    'INFO',
    'A. Open points (recorded)',
    'statuses accompanying the failure result',
    'HTTP status code that accompanies a failure result: not shown.',
  ),
  r(
    'USR-OPEN-03',
    'INFO',
    'A. Open points (recorded)',
    'PUT and POST on /UserService/users/{userid}',
    'Payload and behaviour of the id-suffixed PUT/POST forms: not shown.',
  ),
  r(
    'USR-OPEN-04',
    'INFO',
    'A. Open points (recorded)',
    'answers to a missing field or a non-integer id',
    'Behaviour when a form field is missing or id is not an integer: not shown.',
  ),

  // --- B. Domains
  r(
    'APP-DOM-01',
    'MUST',
    'B. Domains (JSON)',
    'creating a domain (200/201) answers the full domain',
    'A 200 OK or 201 answer to a change carries the full resource with all its visible fields (id, hostname, created_at, updated_at).',
  ),
  r(
    'APP-DOM-02',
    'MUST',
    'B. Domains (JSON)',
    'domain id is a UUID, timestamps are ISO 8601 UTC',
    'domain: id string UUID; created_at, updated_at ISO 8601 UTC timestamps.',
  ),
  r(
    'APP-DOM-03',
    'MUST',
    'B. Domains (JSON)',
    'PATCH of a domain answered 200/201 carries the full, updated domain',
    'Applies to operations that change a resource, including PUT, PATCH and DELETE: 200 or 201 carries the full resource.',
  ),
  r(
    'APP-DOM-04',
    'MUST',
    'B. Domains (JSON)',
    'DELETE of a domain answers 200 with the domain as it was',
    'DELETE /apps/{app_id}/domains/{domain_id}: 200 with a domain object (for DELETE, the resource as it was just removed).',
  ),
  r(
    'APP-DOM-05',
    'SHOULD',
    'B. Domains (JSON)',
    'a deleted domain is no longer served',
    'For DELETE, the resource as it was just removed: a later GET does not find it.',
  ),
  r(
    'APP-JSON-01',
    'MUST',
    'B. Domains (JSON)',
    'JSON change answers are application/json with charset=utf-8',
    'Content type is application/json;charset=utf-8.',
  ),
  r(
    'APP-JSON-02',
    'INFO',
    'B. Domains (JSON)',
    'exact Content-Type string of JSON answers',
    'Spelling of the Content-Type (spaces, case): compared as media type and charset.',
  ),

  // --- B. Workers
  r(
    'APP-WRK-01',
    'MUST',
    'B. Workers (JSON, asynchronous)',
    'creating a worker (200/201) answers the full worker',
    'A 200 OK or 201 answer to a change carries the full resource with all its visible fields.',
  ),
  r(
    'APP-WRK-02',
    'MUST',
    'B. Workers (JSON, asynchronous)',
    'DELETE of a worker answers 202',
    'DELETE /apps/{app_id}/workers/{worker_id}: 202 with {}.',
  ),
  r(
    'APP-WRK-03',
    'MUST',
    'B. Workers (JSON, asynchronous)',
    'the 202 body is exactly {}',
    '202 Accepted: an empty JSON object {}; the resource is not returned.',
  ),
  r(
    'APP-WRK-04',
    'MUST',
    'B. Workers (JSON, asynchronous)',
    'the worker is gone after the accepted DELETE (bounded wait)',
    'A DELETE accepted with 202 is carried out asynchronously: the worker is removed.',
  ),
  r(
    'APP-WRK-05',
    'INFO',
    'B. Workers (JSON, asynchronous)',
    'worker fields and state while stopping',
    'Fields of the worker resource: not shown.',
  ),

  // --- HTTP practice
  r(
    'HTTP-01',
    'SHOULD',
    'HTTP practice',
    'a failure result is not a 5xx',
    'A rejected change (duplicate id, unknown id) is a client-side outcome, not a server error.',
  ),
  r(
    'HTTP-02',
    'SHOULD',
    'HTTP practice',
    'a success result comes with a 2xx status',
    'HTTP practice: a successful write is answered 2xx.',
  ),
  r(
    'HTTP-03',
    'SHOULD',
    'HTTP practice',
    'an unknown path answers 404',
    'HTTP practice: a path the service does not serve is 404 Not Found.',
  ),
  r(
    'HTTP-04',
    'SHOULD',
    'HTTP practice',
    'invalid input is refused without a 5xx and changes nothing',
    'Behaviour on a missing field or a non-integer id is not shown; it is still not a server error and not a write.',
  ),
];

export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((rule) => [rule.id, rule]));

export function ruleById(id: string): Rule {
  const rule = RULES_BY_ID.get(id);
  if (!rule) throw new Error(`unknown rule id ${id}`);
  return rule;
}
