import { expect } from 'chai';
import fc from 'fast-check';
import { ABSENT, History, type Op, type OpKind, type Outcome, possibleVersions } from './support/history.ts';

/**
 * The operation-log checker must be able to fail: each known anomaly, written as a small history,
 * is reported, and the matching correct history is not.
 */
let seq = 0;
function op(kind: OpKind, start: number, end: number, outcome: Outcome, extra: Partial<Op> = {}): Op {
  seq++;
  return { seq, client: 1, kind, userId: 7, tag: `t${seq}`, start, end, outcome, status: 200, ...extra };
}

function check(ops: Op[], final: string | undefined): string[] {
  const history = new History();
  for (const o of ops) history.add(o);
  const state = new Map<number, string>();
  if (final !== undefined && final !== ABSENT) state.set(7, final);
  return history.check(state).map((a) => a.kind);
}

describe('the operation-log checker catches every kind of anomaly', () => {
  it('accepts a correct sequential history', () => {
    const c = op('create', 0, 1, 'ok');
    const u = op('update', 2, 3, 'ok');
    const r = op('read', 4, 5, 'ok', { seen: u.tag });
    const d = op('delete', 6, 7, 'ok');
    const r2 = op('read', 8, 9, 'ok', { seen: null });
    expect(check([c, u, r, d, r2], undefined)).to.deep.equal([]);
  });

  it('accepts either order for overlapping writes', () => {
    const c = op('create', 0, 1, 'ok');
    const a = op('update', 2, 10, 'ok');
    const b = op('update', 3, 9, 'ok');
    expect(check([c, a, b], a.tag)).to.deep.equal([]);
    expect(check([c, a, b], b.tag)).to.deep.equal([]);
  });

  it('lost update: an older acknowledged write is final', () => {
    const c = op('create', 0, 1, 'ok');
    const u = op('update', 2, 3, 'ok');
    expect(check([c, u], c.tag)).to.include('lost update (an older write is final)');
  });

  it('lost write: an acknowledged create is missing', () => {
    expect(check([op('create', 0, 1, 'ok')], undefined)).to.include('lost write (user missing)');
  });

  it('resurrected user: present after an acknowledged delete', () => {
    const c = op('create', 0, 1, 'ok');
    const d = op('delete', 2, 3, 'ok');
    expect(check([c, d], c.tag)).to.not.deep.equal([]);
  });

  it('a write answered 503 or failure took effect', () => {
    const c = op('create', 0, 1, 'ok');
    const u = op('update', 2, 3, 'unavailable', { status: 503 });
    expect(check([c, u], u.tag)).to.include('a write answered unavailable took effect');
    const p = op('create', 4, 5, 'rejected', { status: 409 });
    expect(check([c, p], p.tag)).to.include('a write answered rejected took effect');
  });

  it('two successful creates of one id with no delete between', () => {
    const a = op('create', 0, 1, 'ok');
    const b = op('create', 2, 3, 'ok');
    expect(check([a, b], b.tag)).to.include('two successful creates of one id');
    const d = op('delete', 1.5, 1.8, 'ok');
    expect(check([a, d, b], b.tag), 'a delete between them').to.deep.equal([]);
    const late = op('delete', 5, 6, 'indeterminate');
    expect(check([a, late, b], b.tag), 'a delete after both').to.include('two successful creates of one id');
  });

  it('torn record and stale read', () => {
    const c = op('create', 0, 1, 'ok');
    expect(check([c], `torn:n-${c.tag}|p-other`)).to.include('torn record');
    const u = op('update', 2, 3, 'ok');
    const r = op('read', 4, 5, 'ok', { seen: c.tag });
    expect(check([c, u, r], u.tag)).to.include('stale or impossible read');
  });

  it('answers that contradict every order: 404 update of a user known to exist', () => {
    const c = op('create', 0, 1, 'ok');
    const u = op('update', 2, 3, 'rejected', { status: 404 });
    expect(check([c, u], c.tag)).to.include('update answer contradicts the log');
  });

  it('an operation with no answer may or may not have happened', () => {
    const c = op('create', 0, 1, 'ok');
    const u = op('update', 2, 3, 'indeterminate');
    expect(check([c, u], c.tag)).to.deep.equal([]);
    expect(check([c, u], u.tag)).to.deep.equal([]);
  });

  it('possibleVersions, indexed, answers as the definition does, write by write (property)', () => {
    // The definition, written out: every write considered for every question.
    const byDefinition = (effective: Op[], t0: number, t1: number, exclude?: Op): Set<string> => {
      const completedBefore = effective.filter((w) => w !== exclude && w.outcome === 'ok' && w.end < t0);
      const latestStart = Math.max(...completedBefore.map((w) => w.start));
      const versions = new Set<string>(completedBefore.length === 0 ? [ABSENT] : []);
      for (const w of effective) {
        if (w === exclude) continue;
        const done = w.outcome === 'ok' && w.end < t0;
        if (done ? w.end >= latestStart : w.start < t1) versions.add(w.kind === 'delete' ? ABSENT : w.tag);
      }
      return versions;
    };
    const write = fc.record({
      kind: fc.constantFrom<OpKind>('create', 'update', 'delete'),
      start: fc.integer({ min: 0, max: 40 }),
      length: fc.integer({ min: 0, max: 12 }),
      outcome: fc.constantFrom<Outcome>('ok', 'ok', 'indeterminate'),
    });
    const question = fc.record({
      t0: fc.integer({ min: -2, max: 60 }),
      length: fc.integer({ min: 0, max: 10 }),
    });
    fc.assert(
      fc.property(
        fc.array(write, { maxLength: 14 }),
        fc.array(question, { maxLength: 8 }),
        (writes, questions) => {
          const effective = writes.map((w) => op(w.kind, w.start, w.start + w.length, w.outcome));
          const possible = possibleVersions(effective, ABSENT);
          const sorted = (set: Set<string>) => [...set].sort();
          for (const q of questions) {
            const [t0, t1] = [q.t0, q.t0 + q.length];
            expect(sorted(possible(t0, t1))).to.deep.equal(sorted(byDefinition(effective, t0, t1)));
          }
          for (const judged of effective) {
            expect(sorted(possible(judged.start, judged.end, judged))).to.deep.equal(
              sorted(byDefinition(effective, judged.start, judged.end, judged)),
            );
          }
          const final = possible(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
          expect(sorted(final)).to.deep.equal(
            sorted(byDefinition(effective, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY)),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});
