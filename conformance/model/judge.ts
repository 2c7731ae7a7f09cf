/**
 * Compares one observed answer with what the model allows (answers.ts), holding the implementation to
 * the choices it made where the spec is open (choices.ts). Every disagreement carries a signature
 * (signature.ts) that names the defect the same way whichever rule meets it.
 */
import type { Expected } from './answers.ts';
import { type Choices, holdStatus } from './choices.ts';
import { ISO_UTC, UUID } from './formats.ts';
import { named } from './named-defects.ts';
import { is2xx, type Observed, type SeenBody, type SeenUser } from './observe.ts';
import { type Disagreement, disagreement } from './signature.ts';
import { DEFAULT_USER_ID, type ModelUser } from './state.ts';
import { DEFAULT_BACK, incompleteUser, sameUser, showUser } from './users.ts';

const OPERATIONS = 'GET, PUT, POST, DELETE';
/**
 * RES-RESULT-1, RES-OPS-1: the exact bytes of the write answers and of OPTIONS (the original wrote
 * these strings, and its clients compare them: no declaration, no white space).
 */
export const RESULT_BYTES: Readonly<Record<'success' | 'failure', string>> = {
  success: '<result>success</result>',
  failure: '<result>failure</result>',
};
export const OPERATIONS_BYTES = `<operations>${OPERATIONS}</operations>`;
/** The operations an answer lists, white space around the commas aside (their bytes are judgeBytes'). */
const listOf = (seen: SeenBody): string | undefined =>
  seen.kind === 'operations' ? seen.text.replace(/\s*,\s*/g, ', ') : undefined;
const DOMAIN_FIELDS = ['id', 'hostname', 'created_at', 'updated_at'] as const;

const showStatus = (o: Observed) =>
  `${o.status}${o.mediaType ? ` [${o.mediaType}]` : ''}${o.body.kind === 'empty' ? ' with an empty body' : ''}`;

function judgeStatus(expected: Expected, observed: Observed, choices: Choices, out: Disagreement[]): Choices {
  const rule = expected.status;
  const where = expected.situation;
  switch (rule.kind) {
    case 'success':
      if (!is2xx(observed.status))
        out.push(
          disagreement(
            where,
            'status',
            String(observed.status),
            `${where} answered ${showStatus(observed)}, not a 2xx`,
          ),
        );
      return choices;
    case 'exact':
      if (!rule.statuses.includes(observed.status))
        out.push(
          disagreement(
            where,
            'status',
            String(observed.status),
            `${where} answered ${observed.status}; the spec says ${rule.statuses.join(' or ')}`,
          ),
        );
      return choices;
    case 'exact-or-not-served':
      if (is2xx(observed.status) && !rule.statuses.includes(observed.status))
        out.push(
          disagreement(
            where,
            'status',
            String(observed.status),
            `${where} answered ${observed.status}; the spec says ${rule.statuses.join(' or ')}, or no longer finds it`,
          ),
        );
      return choices;
    case 'not-served':
      if (is2xx(observed.status))
        out.push(
          disagreement(
            where,
            'state-change',
            'still served',
            `${where} answered ${observed.status}: it is still served`,
          ),
        );
      return choices;
    case 'any':
      return choices;
    case 'choice': {
      // A 5xx is never a chosen status: it is a server error (HTTP-01 judges it, as a SHOULD).
      if (observed.status >= 500) {
        // Without a result element the body's judgement names it (one defect, one signature). Every
        // failure answered so is one defect, whichever operation met it.
        if (observed.body.kind === 'result')
          out.push(
            disagreement(
              'failure result',
              'status',
              String(observed.status),
              `${where} answered ${showStatus(observed)}: a server error`,
              'SHOULD',
            ),
          );
        return choices;
      }
      const held = holdStatus(choices, rule.choice, observed.status);
      if (held.earlier !== undefined)
        out.push(
          disagreement(
            where,
            'status',
            `${observed.status} after ${held.earlier}`,
            `${where} answered ${observed.status}, where the same answer came with ${held.earlier} before (the spec leaves the status open, not inconsistent)`,
          ),
        );
      return held.choices;
    }
  }
}

function judgeMedia(expected: Expected, observed: Observed, out: Disagreement[]): void {
  // A server error is reported as what it is (its status), not as a representation.
  if (!expected.media || observed.body.kind === 'empty' || observed.status >= 500) return;
  if (expected.media === 'xml' && observed.mediaType !== 'application/xml') {
    const seen = observed.mediaType ?? 'no Content-Type';
    const shape = observed.representation === 'json' ? ' (a JSON body)' : '';
    out.push(
      disagreement(
        'XML answer',
        'media-type',
        seen,
        `${expected.situation} answered \`${seen}\`${shape}; the spec requires XML (\`application/xml\`)`,
      ),
    );
  }
  if (expected.media === 'json') {
    if (observed.mediaType !== 'application/json')
      out.push(
        disagreement(
          'JSON answer',
          'media-type',
          observed.mediaType ?? 'no Content-Type',
          `${expected.situation} answered \`${observed.mediaType ?? 'no Content-Type'}\`; the spec requires \`application/json; charset=utf-8\``,
        ),
      );
    else if (observed.charset !== 'utf-8')
      out.push(
        disagreement(
          'JSON answer',
          'media-type',
          `charset ${observed.charset ?? 'missing'}`,
          `${expected.situation} answered \`application/json\` with charset ${observed.charset ?? 'missing'}; the spec requires charset=utf-8`,
        ),
      );
  }
}

function judgeUsers(
  expected: Expected,
  listed: readonly SeenUser[],
  model: readonly ModelUser[],
  exact: boolean,
  absent: readonly string[],
  out: Disagreement[],
): void {
  const where = expected.situation;
  const firstRead = where.includes('first read') || where.includes('fresh collection');
  // By id, once: a list after a fill holds a thousand users and more.
  const byId = new Map<string, SeenUser[]>();
  for (const u of listed) byId.set(u.id, [...(byId.get(u.id) ?? []), u]);
  for (const user of model) {
    const found = byId.get(user.id) ?? [];
    if (found.length === 0) {
      if (firstRead && user.id === DEFAULT_USER_ID)
        out.push(
          named(
            'noDefaultUser',
            `${where}: the new collection does not hold the default user ${DEFAULT_USER_ID}`,
          ),
        );
      else
        out.push(
          disagreement(where, 'state-change', 'user missing', `${where} does not show ${showUser(user)}`),
        );
    } else if (found.length > 1)
      out.push(
        disagreement(
          where,
          'state-change',
          'user repeated',
          `${where} shows user ${user.id} ${found.length} times`,
        ),
      );
    else if (!sameUser(user, found[0]))
      out.push(
        incompleteUser(where, found[0] as SeenUser) ??
          disagreement(
            where,
            'state-change',
            'other fields',
            `${where} shows ${showUser(found[0])} instead of ${showUser(user)}`,
          ),
      );
  }
  const known = new Set(model.map((u) => u.id));
  const absentIds = new Set(absent);
  const extra = listed.filter((u) => (exact && !known.has(u.id)) || absentIds.has(u.id));
  if (extra.length && firstRead)
    out.push(
      named(
        'usersBesideDefault',
        `${where}: the new collection holds ${extra.map((u) => `user ${u.id}`).join(', ')} besides the default user`,
      ),
    );
  else if (exact && !model.length && extra.length === 1 && extra[0]?.id === DEFAULT_USER_ID)
    out.push(DEFAULT_BACK(where));
  else if (extra.length)
    out.push(
      disagreement(
        where,
        'state-change',
        'extra user',
        `${where} shows ${extra.map(showUser).join(', ')}, which the collection does not hold`,
      ),
    );
}

/**
 * An answer the spec's XML reader cannot read (not well-formed, not valid UTF-8): one defect of the
 * representation, whichever operation or read meets it, and never taken for a state the service is in.
 */
export const unreadableBody = (where: string, problem: string): Disagreement =>
  disagreement(
    'XML answer',
    'body-shape',
    problem.startsWith('not valid UTF-8') ? 'not valid UTF-8' : 'not well-formed',
    `${where} answered a body the spec's XML reader cannot read: ${problem}`,
  );

function judgeBody(expected: Expected, observed: Observed, choices: Choices, out: Disagreement[]): Choices {
  const body = expected.body;
  const seen = observed.body;
  const where = expected.situation;
  if (
    seen.kind === 'unreadable' &&
    observed.status < 500 &&
    (body.kind === 'result' || body.kind === 'users' || body.kind === 'user')
  ) {
    out.push(unreadableBody(where, seen.problem));
    return choices;
  }
  const noResult = () =>
    observed.status >= 500
      ? `${observed.status} without a result`
      : seen.kind === 'unreadable'
        ? 'unreadable'
        : `no result element`;
  switch (body.kind) {
    case 'result': {
      if (seen.kind !== 'result') {
        const detail = seen.kind === 'unreadable' ? `: ${seen.problem}` : '';
        out.push(
          disagreement(
            where,
            'body-shape',
            noResult(),
            `${where} answered ${showStatus(observed)}: not a result element${detail}`,
          ),
        );
        return choices;
      }
      if (seen.word === body.word) return choices;
      const valid = seen.word === 'success' || seen.word === 'failure';
      // A word outside the spec's two is the same defect whichever write answers it.
      out.push(
        valid
          ? disagreement(
              where,
              'result-word',
              seen.word,
              `${where} answers \`<result>${seen.word}</result>\`; the spec says ${body.word}`,
            )
          : disagreement(
              'write',
              'result-word',
              seen.word,
              `${where} answers \`<result>${seen.word}</result>\`; the spec's words are success and failure`,
            ),
      );
      return choices;
    }
    case 'user': {
      if (seen.kind !== 'user') {
        const firstRead = where.includes('first read') && body.user.id === DEFAULT_USER_ID;
        out.push(
          firstRead
            ? named(
                'noDefaultUser',
                `${where} answered ${showStatus(observed)}: no default user ${DEFAULT_USER_ID}`,
              )
            : disagreement(
                where,
                'state-change',
                'user missing',
                `${where} answered ${showStatus(observed)}, not ${showUser(body.user)}`,
              ),
        );
      } else if (!sameUser(body.user, seen.user))
        out.push(
          incompleteUser(where, seen.user) ??
            disagreement(
              where,
              'state-change',
              'other fields',
              `${where} answered ${showUser(seen.user)} instead of ${showUser(body.user)}`,
            ),
        );
      return choices;
    }
    case 'no-user':
      if (seen.kind === 'user' && seen.user.id === body.id)
        out.push(
          disagreement(
            where,
            'state-change',
            'serves a user',
            `${where} serves ${showUser(seen.user)}, which the collection does not hold`,
          ),
        );
      return choices;
    case 'users': {
      if (seen.kind !== 'users' && seen.kind !== 'user') {
        out.push(
          disagreement(
            where,
            'body-shape',
            seen.kind === 'unreadable' ? 'unreadable' : `not a list`,
            `${where} answered ${showStatus(observed)}: not a list of users`,
          ),
        );
        return choices;
      }
      const listed = seen.kind === 'user' ? [seen.user] : seen.users;
      judgeUsers(expected, listed, body.users, body.exact, body.absent, out);
      if (seen.kind === 'users' && seen.wrapper !== '(JSON array)') {
        if (choices.listWrapper === undefined) return { ...choices, listWrapper: seen.wrapper };
        if (choices.listWrapper !== seen.wrapper)
          out.push(
            disagreement(
              where,
              'body-shape',
              `wrapper ${seen.wrapper} after ${choices.listWrapper}`,
              `${where} wraps the list in <${seen.wrapper}>, earlier in <${choices.listWrapper}>`,
            ),
          );
      }
      return choices;
    }
    case 'operations': {
      const text = listOf(seen);
      if (text !== OPERATIONS)
        out.push(
          disagreement(
            where,
            'body-shape',
            text ?? seen.kind,
            `${where} answered ${text === undefined ? showStatus(observed) : `<operations>${text}</operations>`}; the spec says <operations>${OPERATIONS}</operations>`,
          ),
        );
      return choices;
    }
    case 'domain':
    case 'created': {
      if (observed.status === 202) {
        judgeEmptyObject(where, observed, out);
        return choices;
      }
      if (observed.status !== 200 && observed.status !== 201) return choices;
      const value = seen.kind === 'json' ? seen.value : undefined;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        out.push(
          disagreement(
            where,
            'body-shape',
            'not an object',
            `${where} answered ${observed.status} without a JSON object`,
          ),
        );
        return choices;
      }
      const v = value as Record<string, unknown>;
      const fields = body.kind === 'created' && body.resource === 'worker' ? ['id'] : DOMAIN_FIELDS;
      const missing = fields.filter((f) => typeof v[f] !== 'string' || v[f] === '');
      if (missing.length) {
        out.push(
          disagreement(
            where,
            'body-shape',
            `without ${missing.join(', ')}`,
            `${where} answered ${observed.status} without the field(s) ${missing.join(', ')}`,
          ),
        );
        return choices;
      }
      // RES-DOM-1: the formats of a domain's fields, one signature whichever answer shows them.
      if (fields === DOMAIN_FIELDS) {
        if (!UUID.test(String(v.id)))
          out.push(
            disagreement(
              'domain answer',
              'body-shape',
              'id not a UUID',
              `${where} answered a domain whose id ${JSON.stringify(v.id)} is not a UUID`,
            ),
          );
        const badTime = (['created_at', 'updated_at'] as const).find(
          (f) => !ISO_UTC.test(String(v[f])) || Number.isNaN(Date.parse(String(v[f]))),
        );
        if (badTime)
          out.push(
            disagreement(
              'domain answer',
              'body-shape',
              'timestamp not ISO 8601 UTC',
              `${where} answered a domain whose ${badTime} ${JSON.stringify(v[badTime])} is not an ISO 8601 timestamp in UTC`,
            ),
          );
      }
      const was = body.kind === 'domain' ? body.domain : undefined;
      if (was && (v.id !== was.id || v.created_at !== was.created_at))
        out.push(
          disagreement(
            where,
            'body-shape',
            'another resource',
            `${where} answered another domain (id ${JSON.stringify(v.id)})`,
          ),
        );
      if (body.hostname !== undefined && String(v.hostname).toLowerCase() !== body.hostname.toLowerCase())
        out.push(
          disagreement(
            where,
            'body-shape',
            'other hostname',
            `${where} answered hostname ${JSON.stringify(v.hostname)}, not ${JSON.stringify(body.hostname)}`,
          ),
        );
      return choices;
    }
    case 'empty-object':
      // Not found (B-6 allows it where the status rule does) carries whatever error body it likes.
      if (is2xx(observed.status)) judgeEmptyObject(where, observed, out);
      return choices;
    case 'array':
      if (
        is2xx(observed.status) &&
        !(seen.kind === 'json' && Array.isArray(seen.value)) &&
        seen.kind !== 'users'
      )
        out.push(
          disagreement(
            where,
            'body-shape',
            'not an array',
            `${where} answered ${showStatus(observed)}: not a JSON array`,
          ),
        );
      return choices;
    case 'none':
      if (observed.text) out.push(headBody(JSON.stringify(observed.text.slice(0, 60))));
      return choices;
    case 'any':
      return choices;
  }
}

/** HEAD answered with bytes after its headers: one defect, whether a raw read sees them or an HTTP client chokes on them. */
export const headBody = (detail: string): Disagreement =>
  disagreement(
    'HEAD list',
    'body-shape',
    'a body after the headers',
    `HEAD of the list sends a body: ${detail}`,
  );

/**
 * The bytes of a result (a right word) or of the operations (the right list) that are not the spec's
 * (RES-RESULT-1, RES-OPS-1). Apart from `judge`: the rules about those statements (USR-RESULT-01,
 * USR-OPT-02) and the explorer judge them, not every rule's step (a declaration before the result is
 * no business of a rule about PUT). One signature per defect: the body with the word left out, so that
 * success and failure answers name it alike; another representation is its media type's defect.
 */
export function judgeBytes(where: string, observed: Observed): Disagreement[] {
  if (observed.representation !== 'xml') return [];
  const seen = observed.body;
  const text = observed.text;
  if (seen.kind === 'result' && (seen.word === 'success' || seen.word === 'failure')) {
    const exact = RESULT_BYTES[seen.word];
    if (text === exact) return [];
    const shape = text.replace(/(<result\b[^>]*>\s*)(success|failure)/, '$1…');
    return [
      disagreement(
        'write',
        'body-shape',
        `bytes ${JSON.stringify(shape).slice(0, 100)}`,
        `${where} answered ${JSON.stringify(text.slice(0, 200))}; the spec's bytes are exactly ${exact} (RES-RESULT-1: clients of the original compare the string)`,
      ),
    ];
  }
  if (listOf(seen) === OPERATIONS && text !== OPERATIONS_BYTES)
    return [
      disagreement(
        'OPTIONS',
        'body-shape',
        `bytes ${JSON.stringify(text).slice(0, 100)}`,
        `${where} answered ${JSON.stringify(text.slice(0, 200))}; the spec's bytes are exactly ${OPERATIONS_BYTES} (RES-OPS-1)`,
      ),
    ];
  return [];
}

function judgeEmptyObject(where: string, observed: Observed, out: Disagreement[]): void {
  const seen = observed.body;
  const empty =
    seen.kind === 'json' &&
    typeof seen.value === 'object' &&
    seen.value !== null &&
    !Array.isArray(seen.value) &&
    Object.keys(seen.value).length === 0;
  if (!empty)
    out.push(
      disagreement(
        where,
        'body-shape',
        `${observed.status} not {}`,
        `${where} answered ${observed.status} with a body other than {}`,
      ),
    );
}

/** The disagreements of one answer with the model, and the choices as they stand after it. */
export function judge(
  expected: Expected,
  observed: Observed,
  choices: Choices,
): { disagreements: Disagreement[]; choices: Choices } {
  const out: Disagreement[] = [];
  let next = judgeStatus(expected, observed, choices, out);
  judgeMedia(expected, observed, out);
  next = judgeBody(expected, observed, next, out);
  return { disagreements: out, choices: next };
}
