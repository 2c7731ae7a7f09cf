/**
 * The report's defects (report/defects.ts): failing rules grouped by signature, pure data in and out.
 */
import { expect } from 'chai';
import {
  defectsOf,
  type Evidence,
  type FailingRule,
  type HistoryStep,
  historyTable,
  OVERLAPPING,
} from '../report/defects.ts';
import { historyOf } from '../report/markdown.ts';
import { type RuleOutcome, withDefects } from '../report/summary.ts';

const failed = (id: string, fields: Partial<FailingRule>): FailingRule => ({
  id,
  level: 'MUST',
  status: 'failed',
  ...fields,
});

describe('defects: failing rules grouped by signature', () => {
  it('rules meeting one signature of the model make one defect, listing each rule once, whatever their reasons', () => {
    const unchanged = { operation: 'POST (existing id)', aspect: 'state-change', seen: 'unchanged' } as const;
    const { defects, byRule } = defectsOf([
      failed('USR-POST-01', { reason: 'user 17 kept its old name', signatures: [unchanged] }),
      failed('USR-RACE-02', { reason: 'the stored user is none of the POSTs', signatures: [unchanged] }),
      failed('USR-ID-01', { reason: 'POST with id 0042', signatures: [unchanged, unchanged] }),
    ]);
    expect(defects.map((d) => [d.id, d.title, d.rules])).to.deep.equal([
      ['D1', 'POST (existing id): unchanged', ['USR-POST-01', 'USR-RACE-02', 'USR-ID-01']],
    ]);
    // The first rule named it; the later ones fail because of it.
    expect([...byRule.entries()]).to.deep.equal([
      ['USR-RACE-02', 'D1'],
      ['USR-ID-01', 'D1'],
    ]);
  });

  it("a rule without the model's signature is a defect of its own, titled by its reason with the run's numbers as N", () => {
    const { defects } = defectsOf([
      failed('USR-X-01', { reason: 'Error: user 1440249011 took 5365ms, name conf-name-w1fxolby\nat …' }),
      failed('USR-X-01', { reason: 'Error: user 17 took 3ms, name conf-name-w1fxolby' }),
    ]);
    // Digits after a letter belong to a word (a random name), and stay.
    expect(defects.map((d) => d.title)).to.deep.equal([
      'USR-X-01 fails: user N took Nms, name conf-name-w1fxolby',
    ]);
  });

  it('a defect is MUST when a MUST rule fails because of it, SHOULD when only SHOULD rules warn', () => {
    const lost = { operation: 'restart', aspect: 'state-change', seen: 'state not kept' } as const;
    const status500 = { operation: 'failure result', aspect: 'status', seen: '500' } as const;
    const { defects } = defectsOf([
      failed('USR-COL-04', { level: 'SHOULD', signatures: [lost] }),
      failed('HTTP-01', { level: 'SHOULD', signatures: [status500] }),
      failed('USR-COL-08', { level: 'MUST', signatures: [lost] }),
    ]);
    expect(defects.map((d) => [d.signature.operation, d.level])).to.deep.equal([
      ['failure result', 'SHOULD'],
      ['restart', 'MUST'],
    ]);
  });

  it("a defect's id comes from its cause, not from the order the rules met it: the same defects, the same ids", () => {
    const lost = { operation: 'restart', aspect: 'state-change', seen: 'state not kept' } as const;
    const status500 = { operation: 'failure result', aspect: 'status', seen: '500' } as const;
    const word = { operation: 'write', aspect: 'result-word', seen: 'succes' } as const;
    const rules = [
      failed('USR-COL-04', { signatures: [lost] }),
      failed('HTTP-01', { signatures: [status500] }),
      failed('USR-PUT-01', { signatures: [word, lost] }),
    ];
    const ids = (order: FailingRule[]) =>
      Object.fromEntries(defectsOf(order).defects.map((d) => [d.signature.operation, d.id]));
    expect(ids(rules)).to.deep.equal({ 'failure result': 'D1', restart: 'D2', write: 'D3' });
    expect(ids([...rules].reverse())).to.deep.equal(ids(rules));
    // A rule that met no new defect points at its first one by that id.
    expect([...defectsOf([...rules, failed('USR-COL-08', { signatures: [lost] })]).byRule]).to.deep.equal([
      ['USR-COL-08', 'D2'],
    ]);
  });

  it("a SHOULD defect a MUST rule met beside its verdict (the explorer's restart) is a defect that warns, whether the rule passed or failed", () => {
    const lost = { operation: 'restart', aspect: 'state-change', seen: 'state not kept' } as const;
    const other = { operation: 'write', aspect: 'other-record-touched', seen: 'another user' } as const;
    const passed = defectsOf([{ id: 'EXP-SEQ-01', level: 'MUST', status: 'passed', warned: [lost] }]);
    expect(passed.defects.map((d) => [d.id, d.level, d.rules])).to.deep.equal([
      ['D1', 'SHOULD', ['EXP-SEQ-01']],
    ]);
    expect([...passed.byRule]).to.deep.equal([]);
    const both = defectsOf([failed('EXP-SEQ-01', { signatures: [other], warned: [lost] })]);
    expect(both.defects.map((d) => [d.signature.operation, d.level])).to.deep.equal([
      ['restart', 'SHOULD'],
      ['write', 'MUST'],
    ]);
    // Met by the hand-written SHOULD rule too: one defect, both rules.
    const met = defectsOf([
      failed('USR-COL-04', { level: 'SHOULD', signatures: [lost] }),
      { id: 'EXP-SEQ-01', level: 'MUST', status: 'passed', warned: [lost] },
    ]);
    expect(met.defects.map((d) => [d.level, d.rules])).to.deep.equal([
      ['SHOULD', ['USR-COL-04', 'EXP-SEQ-01']],
    ]);
  });

  it("a race's history table says who sent each step, and its place in the order of the calls and of the answers", () => {
    const step = (n: number, call: number, ret: number, fields: Partial<HistoryStep> = {}): HistoryStep => ({
      n,
      method: 'PUT',
      url: 'http://h/UserService/users',
      body: `id=${n}`,
      status: 200,
      answer: '<result>success</result>',
      call,
      ret,
      ...fields,
    });
    const race: Evidence = {
      signature: 'write | lost-update | a write answered success was lost',
      expected: '',
      script: '',
      history: [
        step(1, 0, 5, { client: 8, part: 'before', returned: 1 }),
        step(2, 10, 40, { client: 0, returned: 2 }),
        step(3, 12, Number.POSITIVE_INFINITY, {
          client: 1,
          relaxed: true,
          status: undefined,
          answer: undefined,
        }),
        step(4, 50, 51, { client: 8, part: 'after', method: 'GET', body: undefined, returned: 3 }),
      ],
      // A write of another id that overlapped: apart from the minimal history, in a table of its own.
      overlapping: [step(1, 11, 20, { client: 1, returned: 1 })],
    };
    const table = historyTable(race.history);
    expect(table.head).to.deep.equal([
      '# (order of calls)',
      'sent by',
      'order of answers',
      'sent (ms)',
      'answered (ms)',
      'request',
      'answer',
    ]);
    expect(table.rows.map((r) => r.slice(0, 3).concat(r.at(-1) as string))).to.deep.equal([
      ['1', 'before the race', '1', '200 <result>success</result>'],
      ['2', 'client 0', '2', '200 <result>success</result>'],
      ['3', 'client 1', 'no answer', '(answer set aside: may take effect any time after its call) no answer'],
      ['4', 'read after the race', '3', '200 <result>success</result>'],
    ]);
    // summary.md: the overlapping write under a heading of its own, after the minimal history's table.
    const md = historyOf('D1', race);
    const heading = md.indexOf(OVERLAPPING);
    expect(heading).to.be.greaterThan(md.findIndex((l) => l.includes('| 4 | read after the race |')));
    expect(md.slice(heading).some((l) => l.startsWith('| 1 | client 1 | 1 |'))).to.equal(true);
    expect(md.slice(0, heading).some((l) => l.includes('11 | 20'))).to.equal(false);
    // A sequence has no senders: its order of answers is that of its calls.
    const sequence = historyTable([step(1, 0, 1)]);
    expect(sequence.head).to.deep.equal(['#', 'sent (ms)', 'answered (ms)', 'request', 'answer']);
  });

  it('a passing rule, and an INFO rule that failed, make no defect', () => {
    const { defects } = defectsOf([
      { id: 'USR-A-01', level: 'MUST', status: 'passed' },
      failed('USR-B-01', { level: 'INFO', reason: 'observed' }),
    ]);
    expect(defects).to.deep.equal([]);
  });

  it('a rule skipped as "could not check" for a lying reader names that reader\'s defect, and is no rule of it', () => {
    const lie = { operation: 'GET by id', aspect: 'state-change' as const, seen: 'serves another user' };
    const outcome = (id: string, fields: Partial<RuleOutcome>): RuleOutcome => ({
      id,
      level: 'MUST',
      section: 'A',
      title: id,
      spec: '',
      statements: [],
      status: 'failed',
      ...fields,
    });
    const { defects, rules } = withDefects([
      outcome('USR-GET-01', { reason: 'GET by id serves user 1', signatures: [lie] }),
      outcome('USR-XML-02', {
        status: 'skipped',
        reason: 'could not check: GET by id lies',
        signatures: [lie],
      }),
    ]);
    expect(defects.map((d) => [d.id, d.rules])).to.deep.equal([['D1', ['USR-GET-01']]]);
    expect(rules[1]).to.include({
      status: 'skipped',
      reason: 'could not check: GET by id lies (D1)',
      defect: 'D1',
    });
  });
});
