import { area } from './area.ts';

/** The rules checked by tests/representations.spec.ts: section A. Representations: XML and forms. */
export const REPRESENTATIONS = area('A. Representations: XML and forms', 'tests/representations.spec.ts', [
  // --- Representations
  {
    id: 'USR-XML-01',
    level: 'MUST',
    title: 'every answer of section A is application/xml',
    spec: 'Representations are XML; the response payloads of rules 1-6 are application/xml (parameters tolerated).',
    statements: ['SVC-6', 'A-EP-1', 'A-EP-2', 'A-EP-3', 'A-EP-4', 'A-EP-5', 'A-EP-6'],
  },
  {
    id: 'USR-XML-02',
    level: 'MUST',
    title: 'hostile text (< & ]]> quotes) stays well-formed and round-trips',
    spec: 'Representations are XML: name and profession are free text, so the documents stay well-formed for any text.',
    statements: ['SVC-6', 'RES-USER-3'],
    axes: ['exactness'],
  },
  {
    id: 'USR-XML-03',
    level: 'MUST',
    title: 'non-ASCII text round-trips',
    spec: 'name and profession are free text.',
    statements: ['RES-USER-3'],
    axes: ['exactness'],
  },
  {
    id: 'USR-FORM-01',
    level: 'MUST',
    title: 'form decoding: "+" is a space',
    spec: 'Write operations receive form-encoded input (application/x-www-form-urlencoded).',
    statements: ['SVC-7', 'A-EP-3'],
    axes: ['exactness'],
  },
  {
    id: 'USR-FORM-02',
    level: 'MUST',
    title: 'form decoding: percent-escapes (%2B %26 %3D %25)',
    spec: 'Write operations receive form-encoded input (application/x-www-form-urlencoded).',
    statements: ['SVC-7', 'A-EP-3'],
    axes: ['exactness'],
  },
  {
    id: 'USR-FORM-03',
    level: 'MUST',
    title: 'form decoding: percent-encoded UTF-8',
    spec: 'Write operations receive form-encoded input (application/x-www-form-urlencoded).',
    statements: ['SVC-7', 'A-EP-3'],
    axes: ['exactness'],
  },
  {
    id: 'USR-RESULT-01',
    level: 'MUST',
    title: 'every write answer is exactly the bytes <result>success</result> or <result>failure</result>',
    spec: 'A write operation returns an XML document of exactly one of two forms: <result>success</result> or <result>failure</result> (clients of the original compare the string: no declaration, no white space).',
    statements: ['RES-RESULT-1', 'SVC-8'],
  },
  {
    id: 'USR-XML-04',
    level: 'INFO',
    title: 'Content-Type and XML declaration of the answers',
    spec: 'Media type parameters and the XML declaration: not shown.',
    statements: ['SVC-6'],
  },
]);
