import { area } from './area.ts';

/** The rules checked by tests/options.spec.ts: section A.6 OPTIONS. */
export const OPTIONS = area('A.6 OPTIONS', 'tests/options.spec.ts', [
  // --- OPTIONS
  {
    id: 'USR-OPT-01',
    level: 'MUST',
    title: 'OPTIONS answers an application/xml operations element',
    spec: 'OPTIONS /UserService/users: application/xml, operations element.',
    statements: ['A-EP-6', 'A-R6', 'SVC-2'],
  },
  {
    id: 'USR-OPT-02',
    level: 'MUST',
    title: 'the OPTIONS answer is exactly the bytes <operations>GET, PUT, POST, DELETE</operations>',
    spec: 'The OPTIONS response is the XML element <operations>GET, PUT, POST, DELETE</operations>: exactly those bytes, as the original wrote them (no declaration, no white space).',
    statements: ['RES-OPS-1', 'A-R6'],
  },
  {
    id: 'USR-OPT-03',
    level: 'INFO',
    title: 'Allow header of OPTIONS',
    spec: 'Headers of the OPTIONS answer: not shown.',
    statements: ['A-EP-6'],
  },
]);
