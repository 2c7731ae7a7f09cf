import { expect } from 'chai';
import { ABSENT, History, type Op, type OpKind, type Outcome } from './support/history.ts';

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
});
