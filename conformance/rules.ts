/**
 * The rule catalogue: every check the suite makes, as data, one record per rule with named fields
 * (`Rule`). Stable ids (never reuse or renumber one), an RFC 2119 level, the section of the spec it
 * comes from, the sentence it checks, the anchors of the statements of docs/SPEC.md (in the
 * user-service repository) that it checks, the axes it covers and the spec file whose test checks it.
 *
 * - MUST: what SPEC.md states. A failure fails the run.
 * - SHOULD: sound HTTP practice the spec implies. A failure is a warning; the run still passes.
 * - INFO: what the spec leaves open ("not shown"). The suite records what the implementation does and
 *   never fails it.
 *
 * What a level does to an outcome is written once, in `statusOf`: the rule runner (support/rule.ts),
 * the reporter and the self-test use it.
 */
export type Level = 'MUST' | 'SHOULD' | 'INFO';

/**
 * What an outcome of a rule of `level` counts as: a failed MUST is `failed` (it fails the run), a
 * failed SHOULD a `warning` (the run still passes), and an INFO rule is `info` whatever happened (what
 * it saw is recorded, never failed). A passed MUST or SHOULD is `passed`; any other outcome (skipped,
 * could not set up, expected failure, ...) is what it is, whatever the level.
 */
export function statusOf<Outcome extends string>(
  level: Level,
  outcome: Outcome,
): Outcome | 'passed' | 'failed' | 'warning' | 'info' {
  if (outcome !== 'passed' && outcome !== 'failed') return outcome;
  if (level === 'INFO') return 'info';
  if (outcome === 'passed') return 'passed';
  return level === 'SHOULD' ? 'warning' : 'failed';
}

/** Whether a failure of a rule of `level` fails the run (MUST), rather than warn or be recorded. */
export const failureFailsRun = (level: Level): boolean => statusOf(level, 'failed') === 'failed';

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
  size: 'collections beyond the sizes implementations commonly cap at (1,000 and 10,000 users), within the time of one rule (90 s unless --timeout says otherwise)',
  freshness: 'a read right after a change, through every read path (list, by id, HEAD), sees it',
};

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

export interface Rule {
  /** Stable: never reused or renumbered. */
  id: string;
  level: Level;
  section: Section;
  /** Short title shown in test names and reports. */
  title: string;
  /** The sentence of SPEC.md (or the practice) the rule checks. */
  spec: string;
  /** Anchors of the statements of docs/SPEC.md the rule checks (`A-R3.2`): a violation fails the rule. */
  statements: readonly string[];
  /**
   * What the rule requires beyond a running target: a fresh instance (empty collection) or a restart.
   * Without a way to get one (a start command), such a rule is skipped with the reason, never passed.
   */
  needs?: 'fresh' | 'restart';
  /** The axes of consequences it covers (docs/coverage.md), if any. */
  axes?: readonly Axis[];
  /** The spec file whose `rule(id, …)` test checks it, relative to the package's source folder. */
  file: `tests/${string}.spec.ts`;
}

export const RULES: readonly Rule[] = [
  // --- Collection
  {
    id: 'USR-COL-01',
    level: 'MUST',
    section: 'A. Collection and default user',
    title: 'a fresh service lists exactly the default user, id 1',
    spec: 'GET list: on first use of an empty service it returns one user, the default one with id 1.',
    statements: ['A-R1.2', 'SVC-10'],
    needs: 'fresh',
    file: 'tests/collection.spec.ts',
  },
  {
    id: 'USR-COL-02',
    level: 'MUST',
    section: 'A. Collection and default user',
    title: 'a first read by id on a fresh service serves the default user',
    spec: 'When the first read finds no collection, the service creates one holding a single default user with id 1 and then serves it.',
    statements: ['SVC-10'],
    needs: 'fresh',
    file: 'tests/collection.spec.ts',
  },
  {
    id: 'USR-COL-03',
    level: 'MUST',
    section: 'A. Collection and default user',
    title: 'the collection persists between requests',
    spec: 'The collection persists between requests.',
    statements: ['SVC-9'],
    file: 'tests/collection.spec.ts',
  },
  {
    id: 'USR-COL-04',
    level: 'SHOULD',
    section: 'A. Collection and default user',
    title: 'the collection survives a restart of the service',
    spec: 'The collection persists between requests (across a stop and start of the service).',
    statements: ['SVC-9'],
    needs: 'restart',
    file: 'tests/collection.spec.ts',
  },
  {
    id: 'USR-COL-05',
    level: 'INFO',
    section: 'A. Collection and default user',
    title: 'fields of the default user',
    spec: 'The default user has id 1; its name and profession are not shown.',
    statements: ['SVC-10'],
    needs: 'fresh',
    file: 'tests/collection.spec.ts',
  },
  {
    id: 'USR-COL-06',
    level: 'MUST',
    section: 'A. Collection and default user',
    title: 'a collection emptied by deletes stays empty: the default user does not come back',
    spec: 'The default user is created when a read finds no collection; an existing collection that has become empty is still a collection.',
    statements: ['SVC-11', 'SVC-3'],
    needs: 'fresh',
    file: 'tests/collection.spec.ts',
  },
  {
    id: 'USR-COL-07',
    level: 'INFO',
    section: 'A. Collection and default user',
    title: 'a write as the first request of a fresh service: is the default user there afterwards?',
    spec: 'Whether a write creates the collection (and with it the default user) is not stated.',
    statements: ['SVC-10'],
    needs: 'fresh',
    file: 'tests/collection.spec.ts',
  },
  {
    id: 'USR-COL-08',
    level: 'SHOULD',
    section: 'A. Collection and default user',
    title: 'a collection emptied by deletes is still empty after a restart',
    spec: 'The collection persists (across a stop and start of the service), including its being empty.',
    statements: ['SVC-11', 'SVC-9'],
    needs: 'restart',
    file: 'tests/collection.spec.ts',
  },

  // --- GET list
  {
    id: 'USR-LIST-01',
    level: 'MUST',
    section: 'A.1 GET list',
    title: 'GET list answers an XML list of user elements',
    spec: 'GET /UserService/users: application/xml, a list of user elements (id, name, profession).',
    statements: ['A-EP-1', 'RES-USER-1'],
    file: 'tests/list.spec.ts',
  },
  {
    id: 'USR-LIST-02',
    level: 'MUST',
    section: 'A.1 GET list',
    title: 'GET list returns every user of the collection with its fields',
    spec: 'GET list returns all users in the collection.',
    statements: ['A-R1.1', 'SVC-1'],
    file: 'tests/list.spec.ts',
  },
  {
    id: 'USR-LIST-03',
    level: 'INFO',
    section: 'A.1 GET list',
    title: 'name of the element wrapping the list, and the order',
    spec: 'Element name wrapping the list of users in the list response: not shown.',
    statements: ['RES-USER-5'],
    file: 'tests/list.spec.ts',
  },
  {
    id: 'USR-LIST-04',
    level: 'MUST',
    section: 'A.1 GET list',
    title: 'GET list is not paged: 205 new users all appear in one answer',
    spec: 'GET list returns all users in the collection; no page size is specified.',
    statements: ['A-R1.1', 'LIM-1'],
    axes: ['size'],
    file: 'tests/list.spec.ts',
  },

  // --- GET by id
  {
    id: 'USR-GET-01',
    level: 'MUST',
    section: 'A.2 GET by id',
    title: 'GET by id answers the user element with that id',
    spec: 'GET /UserService/users/{userid} returns the user whose id equals {userid} (application/xml, one user element).',
    statements: ['A-EP-2', 'A-R2', 'A-PATH-1', 'RES-USER-1'],
    file: 'tests/get.spec.ts',
  },
  {
    id: 'USR-GET-04',
    level: 'MUST',
    section: 'A.2 GET by id',
    title: 'reads change nothing (GET, HEAD and OPTIONS of an unknown id create nothing)',
    spec: 'GET is read-only and safe.',
    statements: ['SVC-3'],
    file: 'tests/get.spec.ts',
  },
  {
    id: 'USR-GET-02',
    level: 'SHOULD',
    section: 'A.2 GET by id',
    title: 'GET of an unknown id answers no user and no 5xx',
    spec: 'Sound practice: a read of a missing resource is a client-side outcome, not a user and not a server error.',
    statements: ['A-R9'],
    file: 'tests/get.spec.ts',
  },
  {
    id: 'USR-GET-03',
    level: 'INFO',
    section: 'A.2 GET by id',
    title: 'status and body of GET for an unknown id',
    spec: 'GET by id when no user has that id: not shown.',
    statements: ['A-R9'],
    file: 'tests/get.spec.ts',
  },

  // --- PUT
  {
    id: 'USR-PUT-01',
    level: 'MUST',
    section: 'A.3 PUT (create)',
    title: 'PUT of a new id answers the success result',
    spec: 'PUT creates a user from the form fields. If no user with that id exists, ... the body is the success result.',
    statements: ['A-EP-3', 'A-R3.2', 'RES-RESULT-1', 'SVC-8'],
    file: 'tests/put.spec.ts',
  },
  {
    id: 'USR-PUT-02',
    level: 'MUST',
    section: 'A.3 PUT (create)',
    title: 'PUT of a new id appends the user with the submitted fields',
    spec: 'If no user with that id exists, the user is appended.',
    statements: ['A-R3.1', 'A-R3.2', 'SVC-1', 'SVC-2', 'STATE-1'],
    axes: ['freshness'],
    file: 'tests/put.spec.ts',
  },
  {
    id: 'USR-PUT-03',
    level: 'MUST',
    section: 'A.3 PUT (create)',
    title: 'PUT of an existing id answers the failure result',
    spec: 'If a user with that id already exists, ... the body is the failure result.',
    statements: ['A-R3.3', 'ERR-1', 'SVC-8'],
    file: 'tests/put.spec.ts',
  },
  {
    id: 'USR-PUT-04',
    level: 'MUST',
    section: 'A.3 PUT (create)',
    title: 'PUT of an existing id changes nothing',
    spec: 'If a user with that id already exists, nothing changes.',
    statements: ['A-R3.3'],
    file: 'tests/put.spec.ts',
  },
  {
    id: 'USR-PUT-05',
    level: 'MUST',
    section: 'A.3 PUT (create)',
    title: '50 concurrent PUTs of one new id: exactly one success',
    spec: 'PUT creates only when no user with that id exists (rule 3), whatever the concurrency.',
    statements: ['A-R3.2', 'A-R3.3', 'RES-USER-2'],
    axes: ['concurrency'],
    file: 'tests/put.spec.ts',
  },
  {
    id: 'USR-PUT-06',
    level: 'MUST',
    section: 'A.3 PUT (create)',
    title: 'repeating a PUT leaves the same state',
    spec: 'PUT and DELETE are idempotent in the sense that the resulting state is the same however many times they are called.',
    statements: ['SVC-4'],
    file: 'tests/put.spec.ts',
  },
  {
    id: 'USR-PUT-07',
    level: 'MUST',
    section: 'A.3 PUT (create)',
    title: 'PUT of a user equal to a stored one (same id, name, profession) answers the failure result',
    spec: 'If a user with that id already exists, nothing changes and the body is the failure result (equality of users does not make it a success).',
    statements: ['A-R3.3', 'RES-USER-4'],
    file: 'tests/put.spec.ts',
  },

  // --- POST
  {
    id: 'USR-POST-01',
    level: 'MUST',
    section: 'A.4 POST (update)',
    title: 'POST of an existing id answers the success result',
    spec: "POST updates. If a user with the form's id exists, ... the body is the success result.",
    statements: ['A-EP-4', 'A-R4.1', 'SVC-5', 'SVC-8'],
    file: 'tests/post.spec.ts',
  },
  {
    id: 'USR-POST-02',
    level: 'MUST',
    section: 'A.4 POST (update)',
    title: 'POST replaces the user wholesale',
    spec: 'That user is replaced wholesale by the submitted id, name and profession.',
    statements: ['A-R4.1', 'SVC-1', 'SVC-2', 'STATE-1'],
    axes: ['exactness', 'freshness'],
    file: 'tests/post.spec.ts',
  },
  {
    id: 'USR-POST-03',
    level: 'MUST',
    section: 'A.4 POST (update)',
    title: 'POST of an unknown id answers the failure result',
    spec: 'If none exists, ... the body is the failure result.',
    statements: ['A-R4.2', 'ERR-1', 'SVC-8'],
    file: 'tests/post.spec.ts',
  },
  {
    id: 'USR-POST-04',
    level: 'MUST',
    section: 'A.4 POST (update)',
    title: 'POST of an unknown id changes nothing (creates no user)',
    spec: 'If none exists, nothing changes.',
    statements: ['A-R4.2'],
    file: 'tests/post.spec.ts',
  },

  // --- DELETE
  {
    id: 'USR-DEL-01',
    level: 'MUST',
    section: 'A.5 DELETE',
    title: 'DELETE of an existing id answers the success result',
    spec: 'DELETE removes the user whose id equals {userid}. If it existed, the body is the success result.',
    statements: ['A-EP-5', 'A-R5.1', 'SVC-8'],
    file: 'tests/delete.spec.ts',
  },
  {
    id: 'USR-DEL-02',
    level: 'MUST',
    section: 'A.5 DELETE',
    title: 'DELETE removes that user and only that user',
    spec: 'DELETE removes the user whose id equals {userid}.',
    statements: ['A-R5.1', 'SVC-1', 'SVC-2', 'STATE-1'],
    axes: ['freshness'],
    file: 'tests/delete.spec.ts',
  },
  {
    id: 'USR-DEL-03',
    level: 'MUST',
    section: 'A.5 DELETE',
    title: 'DELETE of an unknown id answers the failure result',
    spec: 'If none exists, ... the body is the failure result.',
    statements: ['A-R5.2', 'ERR-1', 'SVC-8'],
    file: 'tests/delete.spec.ts',
  },
  {
    id: 'USR-DEL-04',
    level: 'MUST',
    section: 'A.5 DELETE',
    title: 'DELETE of an unknown id changes nothing',
    spec: 'If none exists, nothing changes.',
    statements: ['A-R5.2'],
    file: 'tests/delete.spec.ts',
  },
  {
    id: 'USR-DEL-05',
    level: 'MUST',
    section: 'A.5 DELETE',
    title: 'repeating a DELETE leaves the same state',
    spec: 'PUT and DELETE are idempotent in the sense that the resulting state is the same however many times they are called.',
    statements: ['SVC-4'],
    file: 'tests/delete.spec.ts',
  },

  // --- OPTIONS
  {
    id: 'USR-OPT-01',
    level: 'MUST',
    section: 'A.6 OPTIONS',
    title: 'OPTIONS answers an application/xml operations element',
    spec: 'OPTIONS /UserService/users: application/xml, operations element.',
    statements: ['A-EP-6', 'A-R6', 'SVC-2'],
    file: 'tests/options.spec.ts',
  },
  {
    id: 'USR-OPT-02',
    level: 'MUST',
    section: 'A.6 OPTIONS',
    title: 'the OPTIONS answer is exactly the bytes <operations>GET, PUT, POST, DELETE</operations>',
    spec: 'The OPTIONS response is the XML element <operations>GET, PUT, POST, DELETE</operations>: exactly those bytes, as the original wrote them (no declaration, no white space).',
    statements: ['RES-OPS-1', 'A-R6'],
    file: 'tests/options.spec.ts',
  },
  {
    id: 'USR-OPT-03',
    level: 'INFO',
    section: 'A.6 OPTIONS',
    title: 'Allow header of OPTIONS',
    spec: 'Headers of the OPTIONS answer: not shown.',
    statements: ['A-EP-6'],
    file: 'tests/options.spec.ts',
  },

  // --- HEAD
  {
    id: 'USR-HEAD-01',
    level: 'MUST',
    section: 'A.7 HEAD',
    title: 'HEAD of the list answers without a body',
    spec: 'HEAD /UserService/users: headers only, no body.',
    statements: ['A-EP-7', 'A-R7'],
    file: 'tests/head.spec.ts',
  },
  {
    id: 'USR-HEAD-02',
    level: 'MUST',
    section: 'A.7 HEAD',
    title: "HEAD answers the status and headers of GET's list",
    spec: 'HEAD returns the headers that a GET of the list would return, without a body.',
    statements: ['A-R7'],
    file: 'tests/head.spec.ts',
  },
  {
    id: 'USR-HEAD-03',
    level: 'SHOULD',
    section: 'A.7 HEAD',
    title: "HEAD of a user by id answers GET's status without a body",
    spec: 'HTTP practice (RFC 9110 9.3.2): HEAD is GET without the content, on every resource that answers GET.',
    statements: ['A-R7'],
    file: 'tests/head.spec.ts',
  },

  // --- Representations
  {
    id: 'USR-XML-01',
    level: 'MUST',
    section: 'A. Representations: XML and forms',
    title: 'every answer of section A is application/xml',
    spec: 'Representations are XML; the response payloads of rules 1-6 are application/xml (parameters tolerated).',
    statements: ['SVC-6', 'A-EP-1', 'A-EP-2', 'A-EP-3', 'A-EP-4', 'A-EP-5', 'A-EP-6'],
    file: 'tests/representations.spec.ts',
  },
  {
    id: 'USR-XML-02',
    level: 'MUST',
    section: 'A. Representations: XML and forms',
    title: 'hostile text (< & ]]> quotes) stays well-formed and round-trips',
    spec: 'Representations are XML: name and profession are free text, so the documents stay well-formed for any text.',
    statements: ['SVC-6', 'RES-USER-3'],
    axes: ['exactness'],
    file: 'tests/representations.spec.ts',
  },
  {
    id: 'USR-XML-03',
    level: 'MUST',
    section: 'A. Representations: XML and forms',
    title: 'non-ASCII text round-trips',
    spec: 'name and profession are free text.',
    statements: ['RES-USER-3'],
    axes: ['exactness'],
    file: 'tests/representations.spec.ts',
  },
  {
    id: 'USR-FORM-01',
    level: 'MUST',
    section: 'A. Representations: XML and forms',
    title: 'form decoding: "+" is a space',
    spec: 'Write operations receive form-encoded input (application/x-www-form-urlencoded).',
    statements: ['SVC-7', 'A-EP-3'],
    axes: ['exactness'],
    file: 'tests/representations.spec.ts',
  },
  {
    id: 'USR-FORM-02',
    level: 'MUST',
    section: 'A. Representations: XML and forms',
    title: 'form decoding: percent-escapes (%2B %26 %3D %25)',
    spec: 'Write operations receive form-encoded input (application/x-www-form-urlencoded).',
    statements: ['SVC-7', 'A-EP-3'],
    axes: ['exactness'],
    file: 'tests/representations.spec.ts',
  },
  {
    id: 'USR-FORM-03',
    level: 'MUST',
    section: 'A. Representations: XML and forms',
    title: 'form decoding: percent-encoded UTF-8',
    spec: 'Write operations receive form-encoded input (application/x-www-form-urlencoded).',
    statements: ['SVC-7', 'A-EP-3'],
    axes: ['exactness'],
    file: 'tests/representations.spec.ts',
  },
  {
    id: 'USR-RESULT-01',
    level: 'MUST',
    section: 'A. Representations: XML and forms',
    title: 'every write answer is exactly the bytes <result>success</result> or <result>failure</result>',
    spec: 'A write operation returns an XML document of exactly one of two forms: <result>success</result> or <result>failure</result> (clients of the original compare the string: no declaration, no white space).',
    statements: ['RES-RESULT-1', 'SVC-8'],
    file: 'tests/representations.spec.ts',
  },
  {
    id: 'USR-XML-04',
    level: 'INFO',
    section: 'A. Representations: XML and forms',
    title: 'Content-Type and XML declaration of the answers',
    spec: 'Media type parameters and the XML declaration: not shown.',
    statements: ['SVC-6'],
    file: 'tests/representations.spec.ts',
  },

  // --- Known sequence
  {
    id: 'USR-SEQ-01',
    level: 'MUST',
    section: 'A. Known test sequence',
    title: 'the known test sequence holds on a fresh service',
    spec: 'List is non-empty; GET id 1 returns id 1; POST id 1 with new name and profession returns success; PUT id 2 returns success; DELETE id 2 returns success.',
    statements: ['A-SEQ-1', 'A-SEQ-2', 'A-SEQ-3', 'A-SEQ-4', 'A-SEQ-5'],
    needs: 'fresh',
    file: 'tests/sequence.spec.ts',
  },
  {
    id: 'USR-SEQ-02',
    level: 'MUST',
    section: 'A. Known test sequence',
    title:
      'after the known sequence, the collection holds exactly user 1, with the POSTed name and profession',
    spec: 'The state the known sequence leaves: POST replaced user 1 wholesale, PUT added user 2, DELETE removed it.',
    statements: ['A-SEQ-6', 'A-R4.1'],
    needs: 'fresh',
    file: 'tests/sequence.spec.ts',
  },

  // --- Open points
  {
    id: 'USR-OPEN-01',
    level: 'INFO',
    section: 'A. Open points (recorded)',
    title: 'statuses accompanying the success result',
    spec: 'The status of a successful write: not shown.',
    statements: ['ERR-2'],
    file: 'tests/open-points.spec.ts',
  },
  {
    id: 'USR-OPEN-02',
    level: 'INFO',
    section: 'A. Open points (recorded)',
    title: 'statuses accompanying the failure result',
    spec: 'HTTP status code that accompanies a failure result: not shown.',
    statements: ['A-R10', 'ERR-2'],
    file: 'tests/open-points.spec.ts',
  },
  {
    id: 'USR-OPEN-03',
    level: 'INFO',
    section: 'A. Open points (recorded)',
    title: 'PUT and POST on /UserService/users/{userid}',
    spec: 'Payload and behaviour of the id-suffixed PUT/POST forms: not shown.',
    statements: ['A-R8'],
    file: 'tests/open-points.spec.ts',
  },
  {
    id: 'USR-OPEN-04',
    level: 'INFO',
    section: 'A. Open points (recorded)',
    title: 'answers to a missing field or a non-integer id',
    spec: 'Behaviour when a form field is missing or id is not an integer: not shown.',
    statements: ['A-R11'],
    file: 'tests/open-points.spec.ts',
  },
  {
    id: 'USR-OPEN-05',
    level: 'INFO',
    section: 'A. Open points (recorded)',
    title: 'an empty name and a name of 10,000 characters',
    spec: 'Length limits and formats of name and profession: not shown.',
    statements: ['RES-USER-6'],
    axes: ['exactness'],
    file: 'tests/open-points.spec.ts',
  },
  {
    id: 'USR-OPEN-06',
    level: 'INFO',
    section: 'A. Open points (recorded)',
    title: 'a {userid} that is not a plain integer (leading zeros, letters)',
    spec: '{userid} is an integer; what other paths answer is not shown.',
    statements: ['A-PATH-1'],
    axes: ['identity'],
    file: 'tests/open-points.spec.ts',
  },

  // --- B. Domains
  {
    id: 'APP-DOM-01',
    level: 'MUST',
    section: 'B. Domains (JSON)',
    title: 'creating a domain (200/201) answers the full domain',
    spec: 'A 200 OK or 201 answer to a change carries the full resource with all its visible fields (id, hostname, created_at, updated_at).',
    statements: ['B-2', 'RES-DOM-1', 'SVC-12'],
    file: 'tests/domains.spec.ts',
  },
  {
    id: 'APP-DOM-02',
    level: 'MUST',
    section: 'B. Domains (JSON)',
    title: 'domain id is a UUID, timestamps are ISO 8601 UTC',
    spec: 'domain: id string UUID; created_at, updated_at ISO 8601 UTC timestamps.',
    statements: ['RES-DOM-1'],
    file: 'tests/domains.spec.ts',
  },
  {
    id: 'APP-DOM-03',
    level: 'MUST',
    section: 'B. Domains (JSON)',
    title: 'PATCH of a domain answered 200/201 carries the full, updated domain',
    spec: 'Applies to operations that change a resource, including PUT, PATCH and DELETE: 200 or 201 carries the full resource.',
    statements: ['B-1', 'B-2'],
    file: 'tests/domains.spec.ts',
  },
  {
    id: 'APP-DOM-04',
    level: 'MUST',
    section: 'B. Domains (JSON)',
    title: 'DELETE of a domain answers 200 with the domain as it was',
    spec: 'DELETE /apps/{app_id}/domains/{domain_id}: 200 with a domain object (for DELETE, the resource as it was just removed).',
    statements: ['B-2', 'B-4'],
    file: 'tests/domains.spec.ts',
  },
  {
    id: 'APP-DOM-05',
    level: 'MUST',
    section: 'B. Domains (JSON)',
    title: 'a deleted domain is no longer served',
    spec: 'For DELETE, the resource as it was just removed: a later GET does not find it. (A SHOULD until issue 15: the removal is stated, so a failure now fails the run.)',
    statements: ['B-6'],
    file: 'tests/domains.spec.ts',
  },
  {
    id: 'APP-JSON-01',
    level: 'MUST',
    section: 'B. Domains (JSON)',
    title: 'JSON change answers are application/json with charset=utf-8',
    spec: 'Content type is application/json;charset=utf-8.',
    statements: ['B-1'],
    file: 'tests/domains.spec.ts',
  },
  {
    id: 'APP-JSON-02',
    level: 'INFO',
    section: 'B. Domains (JSON)',
    title: 'exact Content-Type string of JSON answers',
    spec: 'Spelling of the Content-Type (spaces, case): compared as media type and charset.',
    statements: ['B-1'],
    file: 'tests/domains.spec.ts',
  },

  // --- B. Workers
  {
    id: 'APP-WRK-01',
    level: 'MUST',
    section: 'B. Workers (JSON, asynchronous)',
    title: 'creating a worker (200/201) answers the full worker',
    spec: 'A 200 OK or 201 answer to a change carries the full resource with all its visible fields.',
    statements: ['B-2'],
    file: 'tests/workers.spec.ts',
  },
  {
    id: 'APP-WRK-02',
    level: 'MUST',
    section: 'B. Workers (JSON, asynchronous)',
    title: 'DELETE of a worker answers 202',
    spec: 'DELETE /apps/{app_id}/workers/{worker_id}: 202 with {}.',
    statements: ['B-5'],
    file: 'tests/workers.spec.ts',
  },
  {
    id: 'APP-WRK-03',
    level: 'MUST',
    section: 'B. Workers (JSON, asynchronous)',
    title: 'the 202 body is exactly {}',
    spec: '202 Accepted: an empty JSON object {}; the resource is not returned.',
    statements: ['B-3', 'B-5', 'SVC-12'],
    file: 'tests/workers.spec.ts',
  },
  {
    id: 'APP-WRK-04',
    level: 'MUST',
    section: 'B. Workers (JSON, asynchronous)',
    title: 'the worker is gone after the accepted DELETE (bounded wait)',
    spec: 'A DELETE accepted with 202 is carried out asynchronously: the worker is removed.',
    statements: ['B-6'],
    file: 'tests/workers.spec.ts',
  },
  {
    id: 'APP-WRK-05',
    level: 'INFO',
    section: 'B. Workers (JSON, asynchronous)',
    title: 'worker fields and state while stopping',
    spec: 'Fields of the worker resource: not shown.',
    statements: ['RES-WRK-1'],
    file: 'tests/workers.spec.ts',
  },

  // --- HTTP practice
  {
    id: 'HTTP-01',
    level: 'SHOULD',
    section: 'HTTP practice',
    title: 'a failure result is not a 5xx',
    spec: 'A rejected change (duplicate id, unknown id) is a client-side outcome, not a server error.',
    statements: ['ERR-2'],
    file: 'tests/http-practice.spec.ts',
  },
  {
    id: 'HTTP-02',
    level: 'SHOULD',
    section: 'HTTP practice',
    title: 'a success result comes with a 2xx status',
    spec: 'HTTP practice: a successful write is answered 2xx.',
    statements: ['A-R10'],
    file: 'tests/http-practice.spec.ts',
  },
  {
    id: 'HTTP-03',
    level: 'SHOULD',
    section: 'HTTP practice',
    title: 'an unknown path answers 404',
    spec: 'HTTP practice: a path the service does not serve is 404 Not Found.',
    statements: ['SCOPE-2'],
    file: 'tests/http-practice.spec.ts',
  },
  {
    id: 'HTTP-04',
    level: 'SHOULD',
    section: 'HTTP practice',
    title: 'invalid input is refused without a 5xx and changes nothing',
    spec: 'Behaviour on a missing field or a non-integer id is not shown; it is still not a server error and not a write.',
    statements: ['A-R11'],
    file: 'tests/http-practice.spec.ts',
  },
  // --- Consequences of the MUST statements along the axes of docs/coverage.md (AXES below)
  {
    id: 'USR-RACE-01',
    level: 'MUST',
    section: 'Consequences along axes',
    title: 'concurrent DELETEs of one user: exactly one success, the user gone',
    spec: 'DELETE removes the user and answers success; DELETE of an id no user has answers failure: of DELETEs racing for one user, exactly one removes it.',
    statements: ['A-R5.1', 'A-R5.2'],
    axes: ['concurrency'],
    file: 'tests/race.spec.ts',
  },
  {
    id: 'USR-RACE-02',
    level: 'MUST',
    section: 'Consequences along axes',
    title: 'concurrent POSTs of one user: all succeed, the stored user is one of them whole',
    spec: 'POST replaces the user as a whole: of POSTs racing for one user, the one stored last is stored with its own name and profession, nothing mixed.',
    statements: ['A-R4.1', 'RES-USER-2'],
    axes: ['concurrency', 'exactness'],
    file: 'tests/race.spec.ts',
  },
  {
    id: 'USR-RACE-03',
    level: 'MUST',
    section: 'Consequences along axes',
    title: 'a PUT and a DELETE of a new id raced: the state agrees with the answers',
    spec: 'PUT of a new id succeeds; a DELETE succeeds only when it removes the user: the user is absent exactly when the DELETE answered success.',
    statements: ['A-R3.2', 'A-R5.1', 'A-R5.2'],
    axes: ['concurrency', 'freshness'],
    file: 'tests/race.spec.ts',
  },
  {
    id: 'USR-RACE-04',
    level: 'MUST',
    section: 'Consequences along axes',
    title: 'a PUT and a POST of a new id raced: the state agrees with the answers',
    spec: "PUT of a new id succeeds; POST succeeds only on an existing user and then replaces it: the stored user is the POST's exactly when the POST answered success.",
    statements: ['A-R3.2', 'A-R4.1', 'A-R4.2'],
    axes: ['concurrency', 'freshness'],
    file: 'tests/race.spec.ts',
  },
  {
    id: 'APP-RACE-01',
    level: 'MUST',
    section: 'Consequences along axes',
    title: 'concurrent DELETEs of one domain: exactly one answers 200 with the domain',
    spec: 'DELETE of a domain answers 200 with the domain as it was when it was removed: a domain is removed once, so only one of racing DELETEs can answer so.',
    statements: ['B-4', 'B-6'],
    axes: ['concurrency'],
    file: 'tests/race.spec.ts',
  },
  {
    id: 'APP-RACE-02',
    level: 'MUST',
    section: 'Consequences along axes',
    title: 'concurrent DELETEs of one domain: every 2xx carries the body of its status, the domain gone',
    spec: 'A change answered 200 or 201 carries the whole resource (for a DELETE, as it was when removed), one answered 202 carries {}: so does every DELETE of racing ones, whichever status it gets; and the domain a DELETE answered 200 for is no longer served.',
    statements: ['B-2', 'B-3', 'B-6'],
    axes: ['concurrency'],
    file: 'tests/race.spec.ts',
  },
  {
    id: 'APP-RACE-03',
    level: 'MUST',
    section: 'Consequences along axes',
    title:
      'a DELETE and a PATCH of one domain raced: 200/201 answers carry the full domain, the state agrees',
    spec: 'A change answered 200 or 201 carries the whole resource: a PATCH and a DELETE of one domain raced each answer a full domain, or {} with 202, or no resource at all; the domain a DELETE answered 200 for is gone unless a PATCH answered a change.',
    statements: ['B-2', 'B-3', 'B-6'],
    axes: ['concurrency'],
    file: 'tests/race.spec.ts',
  },
  {
    id: 'APP-RACE-04',
    level: 'MUST',
    section: 'Consequences along axes',
    title: 'concurrent DELETEs of one worker: every 2xx is 202 with {}, the worker eventually gone',
    spec: 'DELETE of a worker answers 202 with {}, not the resource: so does every DELETE of racing ones that is accepted; the accepted removal is carried out.',
    statements: ['B-3', 'B-5', 'B-6'],
    axes: ['concurrency'],
    file: 'tests/race.spec.ts',
  },
  {
    id: 'USR-EXACT-01',
    level: 'MUST',
    section: 'Consequences along axes',
    title: 'text is stored as sent: white space at either end, case, Unicode normalisation forms',
    spec: 'name and profession are free text: whatever text was stored is served back unchanged (no trimming, case folding or normalisation).',
    statements: ['RES-USER-3', 'A-R3.1', 'A-R4.1'],
    axes: ['exactness'],
    file: 'tests/exactness.spec.ts',
  },
  {
    id: 'USR-EXACT-02',
    level: 'MUST',
    section: 'Consequences along axes',
    title: 'the longest text accepted is stored whole',
    spec: 'Length limits are open, but a value that is accepted is stored and served back unchanged: never cut.',
    statements: ['RES-USER-3', 'RES-USER-6'],
    axes: ['exactness'],
    file: 'tests/exactness.spec.ts',
  },
  {
    id: 'USR-ID-01',
    level: 'MUST',
    section: 'Consequences along axes',
    title: 'an id written with leading zeros or a plus sign is the same user, where accepted',
    spec: 'id is an integer and the key of the user: a writing of the same integer that the implementation accepts names the same user (PUT fails, POST and DELETE act on it, no second user).',
    statements: ['RES-USER-2', 'A-R3.3', 'A-PATH-1'],
    axes: ['identity'],
    file: 'tests/identity.spec.ts',
  },
  {
    id: 'USR-SIZE-01',
    level: 'MUST',
    section: 'Consequences along axes',
    title: 'GET list answers every user beyond 1,000 and 10,000 users',
    spec: 'GET of the list answers every user of the collection, in one answer; no size limit or page size is specified.',
    statements: ['A-R1.1', 'LIM-1'],
    axes: ['size'],
    file: 'tests/size.spec.ts',
  },
  {
    id: 'USR-FRESH-01',
    level: 'MUST',
    section: 'Consequences along axes',
    title: 'a read right after a write sees it, through the list, by id and HEAD',
    spec: 'The collection outlives the request that changed it: a later request sees the change, whatever it reads through.',
    statements: ['SVC-9', 'A-R1.1', 'A-R2', 'A-R7'],
    axes: ['freshness'],
    file: 'tests/freshness.spec.ts',
  },

  // --- Exploration: random sequences and concurrent histories checked against the model (explore/)
  {
    id: 'EXP-SEQ-01',
    level: 'MUST',
    section: 'Consequences along axes',
    title: 'random sequences of operations agree with the model, step by step and in the state they leave',
    spec: 'Every answer of a seeded random sequence of section A operations (ids and texts drawn along every axis) is one the spec allows, and the collection read back is the one the spec says; a failure is shrunk to a minimal sequence and reported once per defect.',
    statements: [
      'A-R1.1',
      'A-R2',
      'A-R3.2',
      'A-R3.3',
      'A-R4.1',
      'A-R4.2',
      'A-R5.1',
      'A-R5.2',
      'RES-USER-2',
      'RES-USER-3',
      'A-PATH-1',
    ],
    axes: ['exactness', 'identity', 'freshness'],
    file: 'tests/explore.spec.ts',
  },
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

export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((rule) => [rule.id, rule]));

export function ruleById(id: string): Rule {
  const rule = RULES_BY_ID.get(id);
  if (!rule) throw new Error(`unknown rule id ${id}`);
  return rule;
}
