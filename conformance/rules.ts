/**
 * The rule catalogue: every check the suite makes, as data. Stable ids (never reuse or renumber one),
 * an RFC 2119 level, the section of the spec it comes from, the sentence it checks, and the anchors of
 * the statements of docs/SPEC.md (in the user-service repository) that it checks: `statements`.
 *
 * - MUST: what SPEC.md states. A failure fails the run.
 * - SHOULD: sound HTTP practice the spec implies. A failure is a warning; the run still passes.
 * - INFO: what the spec leaves open ("not shown"). The suite records what the implementation does and
 *   never fails it.
 *
 * `needs` says what a rule requires beyond a running target: a fresh instance (empty collection) or a
 * restart. Without a way to get one (a start command), such a rule is skipped with the reason, never
 * passed.
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
  /** Anchors of the statements of docs/SPEC.md the rule checks (`A-R3.2`): a violation fails the rule. */
  statements: readonly string[];
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
  'Consequences along axes',
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
  statements: readonly string[],
  needs?: Rule['needs'],
): Rule =>
  needs
    ? { id, level, section, title, spec, statements, needs }
    : { id, level, section, title, spec, statements };

export const RULES: readonly Rule[] = [
  // --- Collection
  r(
    'USR-COL-01',
    'MUST',
    'A. Collection and default user',
    'a fresh service lists exactly the default user, id 1',
    'GET list: on first use of an empty service it returns one user, the default one with id 1.',
    ['A-R1.2', 'SVC-10'],
    'fresh',
  ),
  r(
    'USR-COL-02',
    'MUST',
    'A. Collection and default user',
    'a first read by id on a fresh service serves the default user',
    'When the first read finds no collection, the service creates one holding a single default user with id 1 and then serves it.',
    ['SVC-10'],
    'fresh',
  ),
  r(
    'USR-COL-03',
    'MUST',
    'A. Collection and default user',
    'the collection persists between requests',
    'The collection persists between requests.',
    ['SVC-9'],
  ),
  r(
    'USR-COL-04',
    'SHOULD',
    'A. Collection and default user',
    'the collection survives a restart of the service',
    'The collection persists between requests (across a stop and start of the service).',
    ['SVC-9'],
    'restart',
  ),
  r(
    'USR-COL-05',
    'INFO',
    'A. Collection and default user',
    'fields of the default user',
    'The default user has id 1; its name and profession are not shown.',
    ['SVC-10'],
    'fresh',
  ),
  r(
    'USR-COL-06',
    'MUST',
    'A. Collection and default user',
    'a collection emptied by deletes stays empty: the default user does not come back',
    'The default user is created when a read finds no collection; an existing collection that has become empty is still a collection.',
    ['SVC-11', 'SVC-3'],
    'fresh',
  ),
  r(
    'USR-COL-07',
    'INFO',
    'A. Collection and default user',
    'a write as the first request of a fresh service: is the default user there afterwards?',
    'Whether a write creates the collection (and with it the default user) is not stated.',
    ['SVC-10'],
    'fresh',
  ),
  r(
    'USR-COL-08',
    'SHOULD',
    'A. Collection and default user',
    'a collection emptied by deletes is still empty after a restart',
    'The collection persists (across a stop and start of the service), including its being empty.',
    ['SVC-11', 'SVC-9'],
    'restart',
  ),

  // --- GET list
  r(
    'USR-LIST-01',
    'MUST',
    'A.1 GET list',
    'GET list answers an XML list of user elements',
    'GET /UserService/users: application/xml, a list of user elements (id, name, profession).',
    ['A-EP-1', 'RES-USER-1'],
  ),
  r(
    'USR-LIST-02',
    'MUST',
    'A.1 GET list',
    'GET list returns every user of the collection with its fields',
    'GET list returns all users in the collection.',
    ['A-R1.1', 'SVC-1'],
  ),
  r(
    'USR-LIST-03',
    'INFO',
    'A.1 GET list',
    'name of the element wrapping the list, and the order',
    'Element name wrapping the list of users in the list response: not shown.',
    ['RES-USER-5'],
  ),
  r(
    'USR-LIST-04',
    'MUST',
    'A.1 GET list',
    'GET list is not paged: 205 new users all appear in one answer',
    'GET list returns all users in the collection; no page size is specified.',
    ['A-R1.1', 'LIM-1'],
  ),

  // --- GET by id
  r(
    'USR-GET-01',
    'MUST',
    'A.2 GET by id',
    'GET by id answers the user element with that id',
    'GET /UserService/users/{userid} returns the user whose id equals {userid} (application/xml, one user element).',
    ['A-EP-2', 'A-R2', 'A-PATH-1', 'RES-USER-1'],
  ),
  r(
    'USR-GET-04',
    'MUST',
    'A.2 GET by id',
    'reads change nothing (GET, HEAD and OPTIONS of an unknown id create nothing)',
    'GET is read-only and safe.',
    ['SVC-3'],
  ),
  r(
    'USR-GET-02',
    'SHOULD',
    'A.2 GET by id',
    'GET of an unknown id answers no user and no 5xx',
    'Sound practice: a read of a missing resource is a client-side outcome, not a user and not a server error.',
    ['A-R9'],
  ),
  r(
    'USR-GET-03',
    'INFO',
    'A.2 GET by id',
    'status and body of GET for an unknown id',
    'GET by id when no user has that id: not shown.',
    ['A-R9'],
  ),

  // --- PUT
  r(
    'USR-PUT-01',
    'MUST',
    'A.3 PUT (create)',
    'PUT of a new id answers the success result',
    'PUT creates a user from the form fields. If no user with that id exists, ... the body is the success result.',
    ['A-EP-3', 'A-R3.2', 'RES-RESULT-1', 'SVC-8'],
  ),
  r(
    'USR-PUT-02',
    'MUST',
    'A.3 PUT (create)',
    'PUT of a new id appends the user with the submitted fields',
    'If no user with that id exists, the user is appended.',
    ['A-R3.1', 'A-R3.2', 'SVC-1', 'SVC-2', 'STATE-1'],
  ),
  r(
    'USR-PUT-03',
    'MUST',
    'A.3 PUT (create)',
    'PUT of an existing id answers the failure result',
    'If a user with that id already exists, ... the body is the failure result.',
    ['A-R3.3', 'ERR-1', 'SVC-8'],
  ),
  r(
    'USR-PUT-04',
    'MUST',
    'A.3 PUT (create)',
    'PUT of an existing id changes nothing',
    'If a user with that id already exists, nothing changes.',
    ['A-R3.3'],
  ),
  r(
    'USR-PUT-05',
    'MUST',
    'A.3 PUT (create)',
    '50 concurrent PUTs of one new id: exactly one success',
    'PUT creates only when no user with that id exists (rule 3), whatever the concurrency.',
    ['A-R3.2', 'A-R3.3', 'RES-USER-2'],
  ),
  r(
    'USR-PUT-06',
    'MUST',
    'A.3 PUT (create)',
    'repeating a PUT leaves the same state',
    'PUT and DELETE are idempotent in the sense that the resulting state is the same however many times they are called.',
    ['SVC-4'],
  ),
  r(
    'USR-PUT-07',
    'MUST',
    'A.3 PUT (create)',
    'PUT of a user equal to a stored one (same id, name, profession) answers the failure result',
    'If a user with that id already exists, nothing changes and the body is the failure result (equality of users does not make it a success).',
    ['A-R3.3', 'RES-USER-4'],
  ),

  // --- POST
  r(
    'USR-POST-01',
    'MUST',
    'A.4 POST (update)',
    'POST of an existing id answers the success result',
    "POST updates. If a user with the form's id exists, ... the body is the success result.",
    ['A-EP-4', 'A-R4.1', 'SVC-5', 'SVC-8'],
  ),
  r(
    'USR-POST-02',
    'MUST',
    'A.4 POST (update)',
    'POST replaces the user wholesale',
    'That user is replaced wholesale by the submitted id, name and profession.',
    ['A-R4.1', 'SVC-1', 'SVC-2', 'STATE-1'],
  ),
  r(
    'USR-POST-03',
    'MUST',
    'A.4 POST (update)',
    'POST of an unknown id answers the failure result',
    'If none exists, ... the body is the failure result.',
    ['A-R4.2', 'ERR-1', 'SVC-8'],
  ),
  r(
    'USR-POST-04',
    'MUST',
    'A.4 POST (update)',
    'POST of an unknown id changes nothing (creates no user)',
    'If none exists, nothing changes.',
    ['A-R4.2'],
  ),

  // --- DELETE
  r(
    'USR-DEL-01',
    'MUST',
    'A.5 DELETE',
    'DELETE of an existing id answers the success result',
    'DELETE removes the user whose id equals {userid}. If it existed, the body is the success result.',
    ['A-EP-5', 'A-R5.1', 'SVC-8'],
  ),
  r(
    'USR-DEL-02',
    'MUST',
    'A.5 DELETE',
    'DELETE removes that user and only that user',
    'DELETE removes the user whose id equals {userid}.',
    ['A-R5.1', 'SVC-1', 'SVC-2', 'STATE-1'],
  ),
  r(
    'USR-DEL-03',
    'MUST',
    'A.5 DELETE',
    'DELETE of an unknown id answers the failure result',
    'If none exists, ... the body is the failure result.',
    ['A-R5.2', 'ERR-1', 'SVC-8'],
  ),
  r(
    'USR-DEL-04',
    'MUST',
    'A.5 DELETE',
    'DELETE of an unknown id changes nothing',
    'If none exists, nothing changes.',
    ['A-R5.2'],
  ),
  r(
    'USR-DEL-05',
    'MUST',
    'A.5 DELETE',
    'repeating a DELETE leaves the same state',
    'PUT and DELETE are idempotent in the sense that the resulting state is the same however many times they are called.',
    ['SVC-4'],
  ),

  // --- OPTIONS
  r(
    'USR-OPT-01',
    'MUST',
    'A.6 OPTIONS',
    'OPTIONS answers an application/xml operations element',
    'OPTIONS /UserService/users: application/xml, operations element.',
    ['A-EP-6', 'A-R6', 'SVC-2'],
  ),
  r(
    'USR-OPT-02',
    'MUST',
    'A.6 OPTIONS',
    'the operations element reads exactly "GET, PUT, POST, DELETE"',
    'The OPTIONS response is the XML element <operations>GET, PUT, POST, DELETE</operations>.',
    ['RES-OPS-1', 'A-R6'],
  ),
  r(
    'USR-OPT-03',
    'INFO',
    'A.6 OPTIONS',
    'Allow header of OPTIONS',
    'Headers of the OPTIONS answer: not shown.',
    ['A-EP-6'],
  ),

  // --- HEAD
  r(
    'USR-HEAD-01',
    'MUST',
    'A.7 HEAD',
    'HEAD of the list answers without a body',
    'HEAD /UserService/users: headers only, no body.',
    ['A-EP-7', 'A-R7'],
  ),
  r(
    'USR-HEAD-02',
    'MUST',
    'A.7 HEAD',
    "HEAD answers the status and headers of GET's list",
    'HEAD returns the headers that a GET of the list would return, without a body.',
    ['A-R7'],
  ),
  r(
    'USR-HEAD-03',
    'SHOULD',
    'A.7 HEAD',
    "HEAD of a user by id answers GET's status without a body",
    'HTTP practice (RFC 9110 9.3.2): HEAD is GET without the content, on every resource that answers GET.',
    ['A-R7'],
  ),

  // --- Representations
  r(
    'USR-XML-01',
    'MUST',
    'A. Representations: XML and forms',
    'every answer of section A is application/xml',
    'Representations are XML; the response payloads of rules 1-6 are application/xml (parameters tolerated).',
    ['SVC-6', 'A-EP-1', 'A-EP-2', 'A-EP-3', 'A-EP-4', 'A-EP-5', 'A-EP-6'],
  ),
  r(
    'USR-XML-02',
    'MUST',
    'A. Representations: XML and forms',
    'hostile text (< & ]]> quotes) stays well-formed and round-trips',
    'Representations are XML: name and profession are free text, so the documents stay well-formed for any text.',
    ['SVC-6', 'RES-USER-3'],
  ),
  r(
    'USR-XML-03',
    'MUST',
    'A. Representations: XML and forms',
    'non-ASCII text round-trips',
    'name and profession are free text.',
    ['RES-USER-3'],
  ),
  r(
    'USR-FORM-01',
    'MUST',
    'A. Representations: XML and forms',
    'form decoding: "+" is a space',
    'Write operations receive form-encoded input (application/x-www-form-urlencoded).',
    ['SVC-7', 'A-EP-3'],
  ),
  r(
    'USR-FORM-02',
    'MUST',
    'A. Representations: XML and forms',
    'form decoding: percent-escapes (%2B %26 %3D %25)',
    'Write operations receive form-encoded input (application/x-www-form-urlencoded).',
    ['SVC-7', 'A-EP-3'],
  ),
  r(
    'USR-FORM-03',
    'MUST',
    'A. Representations: XML and forms',
    'form decoding: percent-encoded UTF-8',
    'Write operations receive form-encoded input (application/x-www-form-urlencoded).',
    ['SVC-7', 'A-EP-3'],
  ),
  r(
    'USR-XML-04',
    'INFO',
    'A. Representations: XML and forms',
    'Content-Type and XML declaration of the answers',
    'Media type parameters and the XML declaration: not shown.',
    ['SVC-6'],
  ),

  // --- Known sequence
  r(
    'USR-SEQ-01',
    'MUST',
    'A. Known test sequence',
    'the known test sequence holds on a fresh service',
    'List is non-empty; GET id 1 returns id 1; POST id 1 with new name and profession returns success; PUT id 2 returns success; DELETE id 2 returns success.',
    ['A-SEQ-1', 'A-SEQ-2', 'A-SEQ-3', 'A-SEQ-4', 'A-SEQ-5'],
    'fresh',
  ),
  r(
    'USR-SEQ-02',
    'MUST',
    'A. Known test sequence',
    'after the known sequence, the collection holds exactly user 1, with the POSTed name and profession',
    'The state the known sequence leaves: POST replaced user 1 wholesale, PUT added user 2, DELETE removed it.',
    ['A-SEQ-6', 'A-R4.1'],
    'fresh',
  ),

  // --- Open points
  r(
    'USR-OPEN-01',
    'INFO',
    'A. Open points (recorded)',
    'statuses accompanying the success result',
    'The status of a successful write: not shown.',
    ['ERR-2'],
  ),
  r(
    'USR-OPEN-02',
    'INFO',
    'A. Open points (recorded)',
    'statuses accompanying the failure result',
    'HTTP status code that accompanies a failure result: not shown.',
    ['A-R10', 'ERR-2'],
  ),
  r(
    'USR-OPEN-03',
    'INFO',
    'A. Open points (recorded)',
    'PUT and POST on /UserService/users/{userid}',
    'Payload and behaviour of the id-suffixed PUT/POST forms: not shown.',
    ['A-R8'],
  ),
  r(
    'USR-OPEN-04',
    'INFO',
    'A. Open points (recorded)',
    'answers to a missing field or a non-integer id',
    'Behaviour when a form field is missing or id is not an integer: not shown.',
    ['A-R11'],
  ),
  r(
    'USR-OPEN-05',
    'INFO',
    'A. Open points (recorded)',
    'an empty name and a name of 10,000 characters',
    'Length limits and formats of name and profession: not shown.',
    ['RES-USER-6'],
  ),
  r(
    'USR-OPEN-06',
    'INFO',
    'A. Open points (recorded)',
    'a {userid} that is not a plain integer (leading zeros, letters)',
    '{userid} is an integer; what other paths answer is not shown.',
    ['A-PATH-1'],
  ),

  // --- B. Domains
  r(
    'APP-DOM-01',
    'MUST',
    'B. Domains (JSON)',
    'creating a domain (200/201) answers the full domain',
    'A 200 OK or 201 answer to a change carries the full resource with all its visible fields (id, hostname, created_at, updated_at).',
    ['B-2', 'RES-DOM-1', 'SVC-12'],
  ),
  r(
    'APP-DOM-02',
    'MUST',
    'B. Domains (JSON)',
    'domain id is a UUID, timestamps are ISO 8601 UTC',
    'domain: id string UUID; created_at, updated_at ISO 8601 UTC timestamps.',
    ['RES-DOM-1'],
  ),
  r(
    'APP-DOM-03',
    'MUST',
    'B. Domains (JSON)',
    'PATCH of a domain answered 200/201 carries the full, updated domain',
    'Applies to operations that change a resource, including PUT, PATCH and DELETE: 200 or 201 carries the full resource.',
    ['B-1', 'B-2'],
  ),
  r(
    'APP-DOM-04',
    'MUST',
    'B. Domains (JSON)',
    'DELETE of a domain answers 200 with the domain as it was',
    'DELETE /apps/{app_id}/domains/{domain_id}: 200 with a domain object (for DELETE, the resource as it was just removed).',
    ['B-2', 'B-4'],
  ),
  r(
    'APP-DOM-05',
    'MUST',
    'B. Domains (JSON)',
    'a deleted domain is no longer served',
    'For DELETE, the resource as it was just removed: a later GET does not find it. (A SHOULD until issue 15: the removal is stated, so a failure now fails the run.)',
    ['B-6'],
  ),
  r(
    'APP-JSON-01',
    'MUST',
    'B. Domains (JSON)',
    'JSON change answers are application/json with charset=utf-8',
    'Content type is application/json;charset=utf-8.',
    ['B-1'],
  ),
  r(
    'APP-JSON-02',
    'INFO',
    'B. Domains (JSON)',
    'exact Content-Type string of JSON answers',
    'Spelling of the Content-Type (spaces, case): compared as media type and charset.',
    ['B-1'],
  ),

  // --- B. Workers
  r(
    'APP-WRK-01',
    'MUST',
    'B. Workers (JSON, asynchronous)',
    'creating a worker (200/201) answers the full worker',
    'A 200 OK or 201 answer to a change carries the full resource with all its visible fields.',
    ['B-2'],
  ),
  r(
    'APP-WRK-02',
    'MUST',
    'B. Workers (JSON, asynchronous)',
    'DELETE of a worker answers 202',
    'DELETE /apps/{app_id}/workers/{worker_id}: 202 with {}.',
    ['B-5'],
  ),
  r(
    'APP-WRK-03',
    'MUST',
    'B. Workers (JSON, asynchronous)',
    'the 202 body is exactly {}',
    '202 Accepted: an empty JSON object {}; the resource is not returned.',
    ['B-3', 'B-5', 'SVC-12'],
  ),
  r(
    'APP-WRK-04',
    'MUST',
    'B. Workers (JSON, asynchronous)',
    'the worker is gone after the accepted DELETE (bounded wait)',
    'A DELETE accepted with 202 is carried out asynchronously: the worker is removed.',
    ['B-6'],
  ),
  r(
    'APP-WRK-05',
    'INFO',
    'B. Workers (JSON, asynchronous)',
    'worker fields and state while stopping',
    'Fields of the worker resource: not shown.',
    ['RES-WRK-1'],
  ),

  // --- HTTP practice
  r(
    'HTTP-01',
    'SHOULD',
    'HTTP practice',
    'a failure result is not a 5xx',
    'A rejected change (duplicate id, unknown id) is a client-side outcome, not a server error.',
    ['ERR-2'],
  ),
  r(
    'HTTP-02',
    'SHOULD',
    'HTTP practice',
    'a success result comes with a 2xx status',
    'HTTP practice: a successful write is answered 2xx.',
    ['A-R10'],
  ),
  r(
    'HTTP-03',
    'SHOULD',
    'HTTP practice',
    'an unknown path answers 404',
    'HTTP practice: a path the service does not serve is 404 Not Found.',
    ['SCOPE-2'],
  ),
  r(
    'HTTP-04',
    'SHOULD',
    'HTTP practice',
    'invalid input is refused without a 5xx and changes nothing',
    'Behaviour on a missing field or a non-integer id is not shown; it is still not a server error and not a write.',
    ['A-R11'],
  ),
  // --- Consequences of the MUST statements along the axes of docs/coverage.md (AXES below)
  r(
    'USR-RACE-01',
    'MUST',
    'Consequences along axes',
    'concurrent DELETEs of one user: exactly one success, the user gone',
    'DELETE removes the user and answers success; DELETE of an id no user has answers failure: of DELETEs racing for one user, exactly one removes it.',
    ['A-R5.1', 'A-R5.2'],
  ),
  r(
    'USR-RACE-02',
    'MUST',
    'Consequences along axes',
    'concurrent POSTs of one user: all succeed, the stored user is one of them whole',
    'POST replaces the user as a whole: of POSTs racing for one user, the one stored last is stored with its own name and profession, nothing mixed.',
    ['A-R4.1', 'RES-USER-2'],
  ),
  r(
    'USR-RACE-03',
    'MUST',
    'Consequences along axes',
    'a PUT and a DELETE of a new id raced: the state agrees with the answers',
    'PUT of a new id succeeds; a DELETE succeeds only when it removes the user: the user is absent exactly when the DELETE answered success.',
    ['A-R3.2', 'A-R5.1', 'A-R5.2'],
  ),
  r(
    'USR-RACE-04',
    'MUST',
    'Consequences along axes',
    'a PUT and a POST of a new id raced: the state agrees with the answers',
    "PUT of a new id succeeds; POST succeeds only on an existing user and then replaces it: the stored user is the POST's exactly when the POST answered success.",
    ['A-R3.2', 'A-R4.1', 'A-R4.2'],
  ),
  r(
    'APP-RACE-01',
    'MUST',
    'Consequences along axes',
    'concurrent DELETEs of one domain: exactly one answers 200 with the domain',
    'DELETE of a domain answers 200 with the domain as it was when it was removed: a domain is removed once, so only one of racing DELETEs can answer so.',
    ['B-4', 'B-6'],
  ),
  r(
    'APP-RACE-02',
    'MUST',
    'Consequences along axes',
    'concurrent DELETEs of one domain: every 2xx carries the body of its status, the domain gone',
    'A change answered 200 or 201 carries the whole resource (for a DELETE, as it was when removed), one answered 202 carries {}: so does every DELETE of racing ones, whichever status it gets; and the domain a DELETE answered 200 for is no longer served.',
    ['B-2', 'B-3', 'B-6'],
  ),
  r(
    'APP-RACE-03',
    'MUST',
    'Consequences along axes',
    'a DELETE and a PATCH of one domain raced: 200/201 answers carry the full domain, the state agrees',
    'A change answered 200 or 201 carries the whole resource: a PATCH and a DELETE of one domain raced each answer a full domain, or {} with 202, or no resource at all; the domain a DELETE answered 200 for is gone unless a PATCH answered a change.',
    ['B-2', 'B-3', 'B-6'],
  ),
  r(
    'APP-RACE-04',
    'MUST',
    'Consequences along axes',
    'concurrent DELETEs of one worker: every 2xx is 202 with {}, the worker eventually gone',
    'DELETE of a worker answers 202 with {}, not the resource: so does every DELETE of racing ones that is accepted; the accepted removal is carried out.',
    ['B-3', 'B-5', 'B-6'],
  ),
  r(
    'USR-EXACT-01',
    'MUST',
    'Consequences along axes',
    'text is stored as sent: white space at either end, case, Unicode normalisation forms',
    'name and profession are free text: whatever text was stored is served back unchanged (no trimming, case folding or normalisation).',
    ['RES-USER-3', 'A-R3.1', 'A-R4.1'],
  ),
  r(
    'USR-EXACT-02',
    'MUST',
    'Consequences along axes',
    'the longest text accepted is stored whole',
    'Length limits are open, but a value that is accepted is stored and served back unchanged: never cut.',
    ['RES-USER-3', 'RES-USER-6'],
  ),
  r(
    'USR-ID-01',
    'MUST',
    'Consequences along axes',
    'an id written with leading zeros or a plus sign is the same user, where accepted',
    'id is an integer and the key of the user: a writing of the same integer that the implementation accepts names the same user (PUT fails, POST and DELETE act on it, no second user).',
    ['RES-USER-2', 'A-R3.3', 'A-PATH-1'],
  ),
  r(
    'USR-SIZE-01',
    'MUST',
    'Consequences along axes',
    'GET list answers every user beyond 1,000 and 10,000 users',
    'GET of the list answers every user of the collection, in one answer; no size limit or page size is specified.',
    ['A-R1.1', 'LIM-1'],
  ),
  r(
    'USR-FRESH-01',
    'MUST',
    'Consequences along axes',
    'a read right after a write sees it, through the list, by id and HEAD',
    'The collection outlives the request that changed it: a later request sees the change, whatever it reads through.',
    ['SVC-9', 'A-R1.1', 'A-R2', 'A-R7'],
  ),
];

/**
 * Statements of docs/SPEC.md that no rule checks, and why. The self-test fails on a statement that has
 * neither a rule nor a reason here (see tools/coverage.ts).
 */
export const UNCHECKED: Readonly<Record<string, string>> = {
  'SCOPE-1': 'describes what the document covers; the statements below are the ones checked',
  'AUTH-1':
    'nothing to check: the suite sends no credentials, so every rule would fail on a service that required some',
  'EVT-1': 'nothing is specified that a client could observe',
  'VER-1': 'every rule addresses the unversioned paths; there is no versioned alternative to tell apart',
};

/**
 * The axes along which the consequences of the MUST statements are checked (docs/coverage.md lists
 * them per rule): races of the writes, exactness of what is stored, one user per integer however it
 * is written, collections beyond common caps, and reads right after a change.
 */
export type Axis = 'concurrency' | 'exactness' | 'identity' | 'size' | 'freshness';
export const AXES: Readonly<Record<Axis, string>> = {
  concurrency: 'every write raced against itself and against the others, with the outcome the spec allows',
  exactness:
    'what is stored is what was sent: white space at either end, case, Unicode normalisation forms, the longest values accepted',
  identity:
    "an integer id is one user however it is written, where the implementation accepts the writing (the suite sends leading zeros and a plus sign: the writings integer parsers commonly accept, Java's Integer.parseInt of the original service among them)",
  size: 'collections beyond the sizes implementations commonly cap at (1,000 and 10,000 users), within 60 s per rule',
  freshness: 'a read right after a change, through every read path (list, by id, HEAD), sees it',
};

/** Which axes each rule covers (rules on no axis are not listed). */
export const RULE_AXES: Readonly<Record<string, readonly Axis[]>> = {
  'USR-PUT-05': ['concurrency'],
  'USR-RACE-01': ['concurrency'],
  'USR-RACE-02': ['concurrency', 'exactness'],
  'USR-RACE-03': ['concurrency', 'freshness'],
  'USR-RACE-04': ['concurrency', 'freshness'],
  'APP-RACE-01': ['concurrency'],
  'APP-RACE-02': ['concurrency'],
  'APP-RACE-03': ['concurrency'],
  'APP-RACE-04': ['concurrency'],
  'USR-XML-02': ['exactness'],
  'USR-XML-03': ['exactness'],
  'USR-FORM-01': ['exactness'],
  'USR-FORM-02': ['exactness'],
  'USR-FORM-03': ['exactness'],
  'USR-POST-02': ['exactness', 'freshness'],
  'USR-EXACT-01': ['exactness'],
  'USR-EXACT-02': ['exactness'],
  'USR-OPEN-05': ['exactness'],
  'USR-ID-01': ['identity'],
  'USR-OPEN-06': ['identity'],
  'USR-LIST-04': ['size'],
  'USR-SIZE-01': ['size'],
  'USR-PUT-02': ['freshness'],
  'USR-DEL-02': ['freshness'],
  'USR-FRESH-01': ['freshness'],
};

export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((rule) => [rule.id, rule]));

export function ruleById(id: string): Rule {
  const rule = RULES_BY_ID.get(id);
  if (!rule) throw new Error(`unknown rule id ${id}`);
  return rule;
}
