/**
 * Properties of the executable model (model/): its state transitions say what docs/SPEC.md says, and
 * its judge accepts the answers the spec allows (the model's own ideal answers) and names a defect by
 * one signature.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { adopt, textCauses } from '../model/effects.ts';
import {
  apply,
  type Expected,
  initialState,
  judge,
  judgeBytes,
  judgeRestart,
  judgeWrite,
  noChoices,
  type Observed,
  OPERATIONS_BYTES,
  type Operation,
  observe,
  RESULT_BYTES,
  type ReadBack,
  type State,
  secondUserAdded,
  secondUserUnseen,
  sharedState,
  signatureKey,
} from '../model/index.ts';
import {
  lieOf,
  listShowsTruly,
  lyingReaders,
  type ReaderAnswers,
  shownTogether,
  throughBothLiars,
} from '../model/readers.ts';
import type { Aspect } from '../model/signature.ts';

const ids = fc.integer({ min: 1, max: 6 }).map(String);
const text = fc.string({ minLength: 1, maxLength: 8 });
const form = fc.record({ id: ids, name: text, profession: text });
const userOp: fc.Arbitrary<Operation> = fc.oneof(
  fc.constant<Operation>({ kind: 'list' }),
  fc.constant<Operation>({ kind: 'head-list' }),
  fc.constant<Operation>({ kind: 'options' }),
  ids.map((id): Operation => ({ kind: 'get', id })),
  form.map((user): Operation => ({ kind: 'put', user })),
  form.map((user): Operation => ({ kind: 'post', user })),
  ids.map((id): Operation => ({ kind: 'delete', id })),
);

function run(ops: Operation[], state: State = initialState()): State {
  return ops.reduce((s, op) => apply(s, op).state, state);
}

/** The answer a correct implementation gives, as the model reads answers. */
function ideal(expected: Expected, status = 200): Observed {
  // The text of the answers whose bytes the spec fixes; the others' is not judged byte for byte.
  const xml = { mediaType: 'application/xml', representation: 'xml' as const, text: '<xml/>' };
  const body = expected.body;
  switch (body.kind) {
    case 'result':
      return { status, ...xml, text: RESULT_BYTES[body.word], body: { kind: 'result', word: body.word } };
    case 'user':
      return {
        status,
        ...xml,
        body: { kind: 'user', user: { name: 'Ada', profession: 'Analyst', ...body.user } },
      };
    case 'no-user':
      return { status: 404, representation: 'none', text: '', body: { kind: 'empty' } };
    case 'users':
      return {
        status,
        ...xml,
        body: {
          kind: 'users',
          wrapper: 'users',
          users: body.users.map((u) => ({ name: 'Ada', profession: 'Analyst', ...u })),
        },
      };
    case 'operations':
      return {
        status,
        ...xml,
        text: OPERATIONS_BYTES,
        body: { kind: 'operations', text: 'GET, PUT, POST, DELETE' },
      };
    default:
      return { status, ...xml, text: '', body: { kind: 'empty' } };
  }
}

/** What GET by id of every known id would show on `state`. */
const readBackOf = (state: State, idsRead: string[]): ReadBack =>
  Object.fromEntries(
    idsRead.map((id) => {
      const user = state.users[id];
      return [id, user ? { name: 'Ada', profession: 'Analyst', ...user } : null];
    }),
  );

describe('the executable model of the spec', () => {
  it('a fresh service: the first read creates the collection with exactly the default user 1', () => {
    const { state, expected } = apply(initialState(), { kind: 'list' });
    expect(Object.keys(state.users)).to.deep.equal(['1']);
    expect(expected.body).to.deep.include({ kind: 'users', exact: true });
  });

  it('PUT of a new id, then GET by id, serves that user', () => {
    fc.assert(
      fc.property(fc.array(userOp), form, (ops, user) => {
        const before = run([{ kind: 'list' }, ...ops]);
        fc.pre(!before.users[user.id]);
        const put = apply(before, { kind: 'put', user });
        expect(put.expected.body).to.deep.equal({ kind: 'result', word: 'success' });
        const get = apply(put.state, { kind: 'get', id: user.id });
        expect(get.expected.body).to.deep.equal({ kind: 'user', user });
      }),
    );
  });

  it('PUT of an existing id changes nothing and answers failure (A-R3.3)', () => {
    fc.assert(
      fc.property(fc.array(userOp), form, (ops, user) => {
        const before = run([...ops, { kind: 'list' }]);
        fc.pre(!!before.users[user.id]);
        const put = apply(before, { kind: 'put', user });
        expect(put.state).to.deep.equal(before);
        expect(put.expected.body).to.deep.equal({ kind: 'result', word: 'failure' });
      }),
    );
  });

  it('POST of an unknown id changes nothing; of an existing id it replaces the user whole', () => {
    fc.assert(
      fc.property(fc.array(userOp), form, (ops, user) => {
        const before = run([...ops, { kind: 'list' }]);
        const post = apply(before, { kind: 'post', user });
        if (before.users[user.id]) expect(post.state.users[user.id]).to.deep.equal(user);
        else expect(post.state).to.deep.equal(before);
      }),
    );
  });

  it('DELETE is idempotent in state (SVC-4), and removes only its user (A-R5.1)', () => {
    fc.assert(
      fc.property(fc.array(userOp), ids, (ops, id) => {
        const before = run([...ops, { kind: 'list' }]);
        const once = apply(before, { kind: 'delete', id }).state;
        const twice = apply(once, { kind: 'delete', id }).state;
        expect(twice).to.deep.equal(once);
        const { [id]: _gone, ...rest } = before.users;
        expect(once.users).to.deep.equal(rest);
      }),
    );
  });

  it('reads change nothing once the collection exists (SVC-3)', () => {
    fc.assert(
      fc.property(fc.array(userOp), ids, (ops, id) => {
        const before = run([...ops, { kind: 'list' }]);
        for (const op of [
          { kind: 'list' },
          { kind: 'head-list' },
          { kind: 'options' },
          { kind: 'get', id },
        ] as Operation[])
          expect(apply(before, op).state).to.deep.equal(before);
      }),
    );
  });

  it('the answers a correct implementation gives, and the state it shows, raise no disagreement', () => {
    fc.assert(
      fc.property(fc.array(userOp, { maxLength: 30 }), (ops) => {
        let state = initialState();
        let choices = noChoices();
        for (const op of ops) {
          const { state: next, expected } = apply(state, op);
          const observed = ideal(expected);
          const judged = judge(expected, observed, choices);
          expect(judged.disagreements, JSON.stringify(op)).to.deep.equal([]);
          choices = judged.choices;
          const touched = expected.touches;
          if (touched.length)
            expect(
              judgeWrite(
                state,
                expected,
                observed,
                judged.disagreements,
                readBackOf(next, [...touched, '1']),
              ),
            ).to.deep.equal([]);
          state = next;
        }
      }),
    );
  });

  it('PUT and POST swapped: each verb is one signature, whatever the id (does what the other does)', () => {
    const emptied: Operation[] = [
      { kind: 'get', id: '1' },
      { kind: 'delete', id: '1' },
    ];
    const user1 = { id: '1', name: ' ', profession: ' ' };
    fc.assert(
      fc.property(
        fc.array(userOp),
        form,
        fc.constantFrom<'put' | 'post'>('put', 'post'),
        (ops, user, verb) => {
          const before = run([...ops, { kind: 'list' }]);
          // The default user's fields are the implementation's: until read, any replacement matches them.
          fc.pre(before.users[user.id]?.name !== undefined || !before.users[user.id]);
          const op: Operation = { kind: verb, user };
          const other = apply(before, { kind: verb === 'put' ? 'post' : 'put', user });
          const expected = apply(before, op).expected;
          // The implementation does what the other verb does, and says so.
          const observed = ideal(other.expected);
          const answered = judge(expected, observed, noChoices()).disagreements;
          const found = judgeWrite(
            before,
            expected,
            observed,
            answered,
            readBackOf(other.state, [String(user.id)]),
          );
          const same =
            JSON.stringify(other.state.users[user.id]) ===
            JSON.stringify(apply(before, op).state.users[user.id]);
          if (same) return;
          expect(found.map((d) => signatureKey(d.signature))).to.deep.equal([
            `${verb.toUpperCase()} | state-change | does what ${verb === 'put' ? 'POST' : 'PUT'} does`,
          ]);
        },
      ),
      {
        // Fast-check's counterexample in about one run in five until 83f5f0d: the collection emptied
        // (user 1 deleted), a POST of id 1 that does what PUT does stores user 1 with the fields sent,
        // which the model named 'the default user comes back'. Run every time, not left to the draw.
        examples: [
          [emptied, user1, 'post'],
          [emptied, user1, 'put'],
        ],
      },
    );
  });

  it('a misspelt success word whose change was made is one word defect, the same for every write', () => {
    const state = apply(sharedState(), { kind: 'put', user: { id: 7, name: 'a', profession: 'b' } }).state;
    const keys = new Set<string>();
    for (const op of [
      { kind: 'put', user: { id: 8, name: 'c', profession: 'd' } },
      { kind: 'post', user: { id: 7, name: 'e', profession: 'f' } },
      { kind: 'delete', id: 7 },
    ] as Operation[]) {
      const { state: next, expected } = apply(state, op);
      const observed: Observed = { ...ideal(expected), body: { kind: 'result', word: 'succes' } };
      const answered = judge(expected, observed, noChoices()).disagreements;
      const found = judgeWrite(
        state,
        expected,
        observed,
        answered,
        readBackOf(next, expected.touches.slice()),
      );
      expect(found).to.have.length(1);
      expect(found[0]?.message).to.match(/succes.*the user was (created|replaced|removed)/);
      keys.add(signatureKey(found[0]!.signature));
    }
    expect([...keys]).to.deep.equal(['write | result-word | succes']);
  });

  it('an update that answers success and changes nothing is reported as such', () => {
    const state = apply(sharedState(), { kind: 'put', user: { id: 7, name: 'a', profession: 'b' } }).state;
    const { expected } = apply(state, { kind: 'post', user: { id: 7, name: 'new', profession: 'new' } });
    const observed = ideal(expected);
    const found = judgeWrite(state, expected, observed, [], { '7': { id: '7', name: 'a', profession: 'b' } });
    expect(found.map((d) => signatureKey(d.signature))).to.deep.equal([
      'POST (existing id) | state-change | unchanged',
    ]);
  });

  it('PUT of an existing id that adds a second user with the id is that one defect, with its word set aside (A-R3.3, RES-USER-2)', () => {
    const state = apply(sharedState(), { kind: 'put', user: { id: 7, name: 'a', profession: 'b' } }).state;
    const op: Operation = { kind: 'put', user: { id: 7, name: 'c', profession: 'd' } };
    const { expected } = apply(state, op);
    const old = { id: '7', name: 'a', profession: 'b' };
    const twin = { id: '7', name: 'c', profession: 'd' };
    const answer = (word: 'success' | 'failure') => {
      const observed = ideal({ ...expected, body: { kind: 'result', word } });
      return judgeWrite(
        state,
        expected,
        observed,
        judge(expected, observed, noChoices()).disagreements,
        {
          '7': old,
        },
        { listed: [old, twin] },
      );
    };
    const success = answer('success');
    expect(success.map((d) => signatureKey(d.signature))).to.deep.equal([
      'PUT (existing id) | state-change | adds a second user with the same id',
    ]);
    expect(success[0]?.message).to.match(/answered success, and the list then shows 2 users with id 7/);
    expect(answer('failure').map((d) => signatureKey(d.signature))).to.deep.equal([
      'PUT (existing id) | state-change | adds a second user with the same id',
    ]);
    // The id shown twice, but neither with the fields sent, or a new id: not this defect.
    expect(secondUserAdded(state, op, '7', [old, { ...old, name: 'x' }])).to.equal(undefined);
    expect(secondUserAdded(sharedState(), op, '7', [twin, twin])).to.equal(undefined);
    // Without the list (a reader known to lie), as before: the word.
    const observed = ideal({ ...expected, body: { kind: 'result', word: 'success' } });
    expect(
      judgeWrite(state, expected, observed, judge(expected, observed, noChoices()).disagreements, {
        '7': old,
      }).map((d) => signatureKey(d.signature)),
    ).to.deep.equal(['PUT (existing id) | result-word | success']);
    // Where no list true of id 7 was read, that word cannot tell a second user unseen (secondUserUnseen).
    expect(secondUserUnseen(state, op, '7', 'success', { '7': old }, undefined)).to.equal(true);
    expect(
      secondUserUnseen(state, op, '7', 'success', { '7': old }, [{ id: '1', name: 'x', profession: 'y' }]),
    ).to.equal(true);
    // A list true of it shows it once (no second user), the PUT changed it, or answered failure: judged.
    expect(secondUserUnseen(state, op, '7', 'success', { '7': old }, [old])).to.equal(false);
    expect(secondUserUnseen(state, op, '7', 'success', { '7': twin }, undefined)).to.equal(false);
    expect(secondUserUnseen(state, op, '7', 'failure', { '7': old }, undefined)).to.equal(false);
  });

  it('POST of the values a user holds answered failure is the word, not what PUT does (the effect cannot tell the verbs apart)', () => {
    const state = apply(sharedState(), { kind: 'put', user: { id: 7, name: 'a', profession: 'b' } }).state;
    const same = apply(state, { kind: 'post', user: { id: 7, name: 'a', profession: 'b' } }).expected;
    const other = apply(state, { kind: 'post', user: { id: 7, name: 'c', profession: 'd' } }).expected;
    const failed = (expected: Expected) => {
      const observed = ideal({ ...expected, body: { kind: 'result', word: 'failure' } });
      return judgeWrite(state, expected, observed, judge(expected, observed, noChoices()).disagreements, {
        '7': { id: '7', name: 'a', profession: 'b' },
      }).map((d) => signatureKey(d.signature));
    };
    expect(failed(same)).to.deep.equal(['POST (existing id) | result-word | failure']);
    // Other values refused, the user kept: what PUT does, as before.
    expect(failed(other)).to.deep.equal(['POST | state-change | does what PUT does']);
  });

  it('an update is not called unchanged where the model never knew the old fields (a list that lies, never adopted)', () => {
    const state = apply(initialState(), { kind: 'list' }).state;
    const { expected } = apply(state, { kind: 'post', user: { id: 1, name: 'Suresh', profession: 'Clerk' } });
    const found = (back: { id: string; name: string; profession: string }) =>
      judgeWrite(state, expected, ideal(expected), [], { '1': back }).map((d) => signatureKey(d.signature));
    expect(found({ id: '1', name: 'Suresh', profession: 'Analyst' })).to.deep.equal([
      'POST (existing id) | state-change | merged',
    ]);
    expect(found({ id: '1', name: 'Suresh', profession: 'Clerk' })).to.deep.equal([]);
  });

  it('a write whose user is stored with "+" for each space sent is the form decoder, for PUT and POST alike', () => {
    const put = apply(sharedState(), { kind: 'put', user: { id: 7, name: 'Jean Paul', profession: 'a b' } });
    const plus = { id: '7', name: 'Jean+Paul', profession: 'a+b' };
    const found = (state: typeof put.state, expected: typeof put.expected, back: typeof plus) =>
      judgeWrite(state, expected, ideal(expected), [], { '7': back }).map((d) => signatureKey(d.signature));
    expect(found(sharedState(), put.expected, plus)).to.deep.equal([
      'form | state-change | "+" stored, not read as a space',
    ]);
    const post = apply(put.state, { kind: 'post', user: { id: 7, name: 'x y', profession: 'z' } });
    expect(found(put.state, post.expected, { id: '7', name: 'x+y', profession: 'z' })).to.deep.equal([
      'form | state-change | "+" stored, not read as a space',
    ]);
    // Other text: other fields, as before.
    expect(
      found(sharedState(), put.expected, { id: '7', name: 'JeanPaul', profession: 'a b' }),
    ).to.deep.equal(['PUT (new id) | state-change | other fields']);
  });

  it('a write whose user is stored trimmed of the white space sent at either end is named by that cause, for PUT and POST alike', () => {
    const put = apply(sharedState(), { kind: 'put', user: { id: 7, name: ' Ada ', profession: '\tb' } });
    const trimmed = { id: '7', name: 'Ada', profession: 'b' };
    const found = (state: typeof put.state, expected: typeof put.expected, back: typeof trimmed) =>
      judgeWrite(state, expected, ideal(expected), [], { '7': back }).map((d) => signatureKey(d.signature));
    expect(found(sharedState(), put.expected, trimmed)).to.deep.equal([
      'write | state-change | text stored trimmed',
    ]);
    const post = apply(put.state, { kind: 'post', user: { id: 7, name: 'x ', profession: 'z' } });
    expect(found(put.state, post.expected, { id: '7', name: 'x', profession: 'z' })).to.deep.equal([
      'write | state-change | text stored trimmed',
    ]);
    // Trimmed inside, or other text: other fields, as before.
    expect(found(sharedState(), put.expected, { id: '7', name: 'A da', profession: 'b' })).to.deep.equal([
      'PUT (new id) | state-change | other fields',
    ]);
  });

  it('textCauses: the fewest causes whose changes, in any order, give the fields stored', () => {
    const sent = { id: '7', name: ' a b ', profession: 'c\n' };
    expect(textCauses(sent, { id: '7', name: 'a b', profession: 'c' })).to.deep.equal(['textTrimmed']);
    expect(textCauses(sent, { id: '7', name: 'a b', profession: 'c\n' })).to.deep.equal(['textTrimmed']);
    expect(textCauses(sent, { id: '7', name: '+a+b+', profession: 'c\n' })).to.deep.equal(['formPlusKept']);
    // Both at once: "+" kept inside, then trimmed (or the other way round).
    expect(textCauses(sent, { id: '7', name: 'a+b', profession: 'c' })).to.deep.equal([
      'formPlusKept',
      'textTrimmed',
    ]);
    expect(textCauses(sent, sent)).to.deep.equal([]);
    expect(textCauses(sent, { id: '7', name: 'ab', profession: 'c' })).to.deep.equal([]);
    expect(textCauses(sent, null)).to.deep.equal([]);
  });

  it('a DELETE that empties the collection and brings the default user back is that defect, whichever user it removed', () => {
    let state = apply(initialState(), { kind: 'list' }).state;
    state = apply(state, { kind: 'put', user: { id: 7, name: 'a', profession: 'b' } }).state;
    state = apply(state, { kind: 'delete', id: 1 }).state;
    const { expected } = apply(state, { kind: 'delete', id: 7 });
    const back = { id: '1', name: 'Ada', profession: 'Analyst' };
    const found = judgeWrite(state, expected, ideal(expected), [], { '7': null, '1': back });
    expect(found.map((d) => signatureKey(d.signature))).to.deep.equal([
      'read of an emptied collection | default-user | the default user comes back',
    ]);
    // A DELETE of user 1 that answered a server error and left it: not removed, not brought back.
    const only = apply(apply(initialState(), { kind: 'list' }).state, {
      kind: 'put',
      user: { id: 7, name: 'a', profession: 'b' },
    });
    const last = apply(apply(only.state, { kind: 'delete', id: 7 }).state, { kind: 'delete', id: 1 });
    const before1 = apply(only.state, { kind: 'delete', id: 7 }).state;
    const failed = { ...ideal(last.expected, 500), body: { kind: 'empty' } } as Observed;
    expect(
      judgeWrite(before1, last.expected, failed, [], { '1': back }).map((d) => d.signature.aspect),
    ).to.not.include('default-user');
    // The same read-back while another user is left is not that defect.
    const kept = apply(state, { kind: 'put', user: { id: 8, name: 'c', profession: 'd' } }).state;
    const other = apply(kept, { kind: 'delete', id: 7 }).expected;
    expect(
      judgeWrite(kept, other, ideal(other), [], {
        '7': null,
        '8': { id: '8', name: 'c', profession: 'd' },
        '1': back,
      }).map((d) => d.signature.aspect),
    ).to.not.include('default-user');
  });

  it('a list of 1,100 users is judged whole, at once: the users past 1,000 missing are named', () => {
    let state = apply(initialState(), { kind: 'list' }).state;
    for (let i = 0; i < 1100; i++)
      state = apply(state, { kind: 'put', user: { id: 2001 + i, name: `f${i}`, profession: 'p' } }).state;
    const { expected } = apply(state, { kind: 'list' });
    const whole = ideal(expected);
    const began = performance.now();
    expect(judge(expected, whole, noChoices()).disagreements).to.deep.equal([]);
    const capped = {
      ...whole,
      body: { ...whole.body, users: (whole.body as { users: unknown[] }).users.slice(0, 1000) },
    } as Observed;
    const found = judge(expected, capped, noChoices()).disagreements;
    expect(performance.now() - began).to.be.below(500);
    expect(found.length).to.equal(101);
    expect(new Set(found.map((d) => signatureKey(d.signature)))).to.deep.equal(
      new Set(['GET list | state-change | user missing']),
    );
  });

  it('a form without a field: the user stored from it has that field of its choice, but has it (RES-USER-1)', () => {
    const { state, expected } = apply(sharedState(), { kind: 'put', user: { id: 7, name: 'a' } });
    expect(state.users['7']).to.deep.equal({ id: '7', name: 'a' });
    const found = judgeWrite(sharedState(), expected, ideal(expected), [], { '7': { id: '7', name: 'a' } });
    expect(found.map((d) => signatureKey(d.signature))).to.deep.equal([
      'user answer | body-shape | element missing',
    ]);
    const kept = { '7': { id: '7', name: 'a', profession: '' } };
    expect(judgeWrite(sharedState(), expected, ideal(expected), [], kept)).to.deep.equal([]);
  });

  it('a write that changes another user is reported as another record touched', () => {
    let state = apply(sharedState(), { kind: 'put', user: { id: 7, name: 'a', profession: 'b' } }).state;
    state = apply(state, { kind: 'put', user: { id: 9, name: 'x', profession: 'y' } }).state;
    const { state: next, expected } = apply(state, { kind: 'delete', id: 9 });
    const found = judgeWrite(state, expected, ideal(expected), [], { '9': null, '7': null });
    expect(found.map((d) => signatureKey(d.signature))).to.deep.equal([
      'write | other-record-touched | another user',
    ]);
    expect(next.users['7']).to.not.equal(undefined);
  });

  it('an open status is held: the failure result answered 200, then 409, is a disagreement', () => {
    const state = apply(sharedState(), { kind: 'put', user: { id: 7, name: 'a', profession: 'b' } }).state;
    const { expected } = apply(state, { kind: 'put', user: { id: 7, name: 'a', profession: 'b' } });
    const first = judge(expected, ideal(expected, 200), noChoices());
    expect(first.disagreements).to.deep.equal([]);
    expect(first.choices.failureStatus).to.equal(200);
    const second = judge(expected, ideal(expected, 409), first.choices);
    expect(second.disagreements.map((d) => d.signature.aspect)).to.deep.equal(['status']);
  });

  it("the exact bytes of a result and of the operations (RES-RESULT-1, RES-OPS-1): the spec's pass; anything around the element is one defect whichever write or word meets it", () => {
    const xmlText = (text: string): Observed =>
      observe({ status: 200, headers: { 'content-type': 'application/xml' }, text });
    // Before and after the element: what a well-formed document may carry there.
    const around = fc.constantFrom(
      ['<?xml version="1.0"?>', ''],
      ['\uFEFF', ''],
      [' ', ''],
      ['', '\n'],
      ['\r\n', ' '],
      ['', '<!-- c -->'],
    );
    fc.assert(
      fc.property(fc.array(userOp), userOp, around, (ops, op, [before, after]) => {
        const { expected } = apply(run(ops), op);
        fc.pre(expected.body.kind === 'result' || expected.body.kind === 'operations');
        const exact = expected.body.kind === 'result' ? RESULT_BYTES[expected.body.word] : OPERATIONS_BYTES;
        expect(judgeBytes(expected.situation, xmlText(exact))).to.deep.equal([]);
        const other = xmlText(`${before}${exact}${after}`);
        // Still the right word or list: judge() finds nothing, judgeBytes one signature (the word left out).
        expect(judge(expected, other, noChoices()).disagreements).to.deep.equal([]);
        const found = judgeBytes(expected.situation, other).map((d) => signatureKey(d.signature));
        const shown = JSON.stringify(`${before}${exact}${after}`.replace(/success|failure/, '…'));
        expect(found).to.deep.equal([
          `${expected.body.kind === 'result' ? 'write' : 'OPTIONS'} | body-shape | bytes ${shown}`,
        ]);
      }),
    );
  });

  it('HEAD of the list answered with bytes after its headers disagrees, however few', () => {
    const { expected } = apply(initialState(), { kind: 'head-list' });
    const head = (text: string) =>
      judge(
        expected,
        observe({ status: 200, headers: { 'content-type': 'application/xml' }, text }),
        noChoices(),
      ).disagreements.map((d) => signatureKey(d.signature));
    expect(head('')).to.deep.equal([]);
    for (const text of ['<userList/>', ' ', '\n'])
      expect(head(text), JSON.stringify(text)).to.deep.equal([
        'HEAD list | body-shape | a body after the headers',
      ]);
  });

  it('JSON where XML is required: one media-type signature, and the words are still judged', () => {
    const { expected } = apply(sharedState(), { kind: 'put', user: { id: 7, name: 'a', profession: 'b' } });
    const observed: Observed = {
      status: 200,
      mediaType: 'application/json',
      representation: 'json',
      text: '{"result":"failure"}',
      body: { kind: 'result', word: 'failure' },
    };
    const keys = judge(expected, observed, noChoices()).disagreements.map((d) => signatureKey(d.signature));
    expect(keys).to.deep.equal([
      'XML answer | media-type | application/json',
      'PUT (new id) | result-word | failure',
    ]);
  });
  it('a restart is judged by what it kept: the same state passes; lost data and users back are one defect', () => {
    fc.assert(
      fc.property(fc.array(userOp, { maxLength: 12 }), (ops) => {
        let state = initialState();
        for (const op of ops) state = apply(state, op).state;
        const kept = Object.values(state.users).map((u) => ({
          id: u.id,
          name: u.name ?? 'default-name',
          profession: u.profession ?? 'default-profession',
        }));
        expect(judgeRestart(state, kept)).to.deep.equal([]);
        if (!state.collection) return;
        const keys = (listed: typeof kept) =>
          judgeRestart(state, listed).map((d) => signatureKey(d.signature));
        const lost = kept.length ? [keys(kept.slice(1))] : [];
        const back = state.complete ? [keys([...kept, { id: '99', name: 'n', profession: 'p' }])] : [];
        for (const found of [...lost, ...back])
          expect(found).to.deep.equal(['restart | state-change | state not kept']);
      }),
    );
  });

  // --- section B
  const json = (status: number, value: unknown, charset = 'utf-8'): Observed => ({
    status,
    mediaType: 'application/json',
    charset,
    representation: 'json',
    text: JSON.stringify(value),
    body: { kind: 'json', value },
  });
  const domainOf = (created_at: string) => ({
    id: '0b7e3c1a-6f1e-4d0b-9a51-2a1f0c4e9d11',
    hostname: 'a.example',
    created_at,
    updated_at: created_at,
  });
  const keys = (expected: Expected, seen: Observed) =>
    judge(expected, seen, noChoices()).disagreements.map((d) => signatureKey(d.signature));

  it('a domain answered with timestamps that are not ISO 8601 in UTC, or an id that is not a UUID, disagrees (RES-DOM-1)', () => {
    const create = apply(initialState(), { kind: 'domain-create', app: 'a', hostname: 'a.example' }).expected;
    for (const t of ['2026-01-01T12:00:00Z', '2026-01-01T12:00:00.123Z', '2026-01-01T12:00:00+00:00'])
      expect(keys(create, json(201, domainOf(t))), t).to.deep.equal([]);
    for (const t of ['2026-01-01T12:00:00', '2026-01-01T13:00:00+01:00', '1 Jan 2026'])
      expect(keys(create, json(201, domainOf(t))), t).to.deep.equal([
        'domain answer | body-shape | timestamp not ISO 8601 UTC',
      ]);
    expect(keys(create, json(201, { ...domainOf('2026-01-01T12:00:00Z'), id: '17' }))).to.deep.equal([
      'domain answer | body-shape | id not a UUID',
    ]);
  });

  it('a DELETE of a worker whose removal is under way answers 202 {} or no longer finds it (B-5, B-6), never 200', () => {
    const created = apply(initialState(), { kind: 'worker-create', app: 'a', command: 'c' });
    const worker = { id: '0b7e3c1a-6f1e-4d0b-9a51-2a1f0c4e9d12', command: 'c' };
    let state = adopt(created.state, created.expected.op, json(201, worker));
    const first = apply(state, { kind: 'worker-delete', app: 'a', id: worker.id });
    expect(keys(first.expected, json(202, {}))).to.deep.equal([]);
    state = first.state;
    const again = apply(state, { kind: 'worker-delete', app: 'a', id: worker.id }).expected;
    expect(keys(again, json(202, {})), 'still stopping').to.deep.equal([]);
    // The removal was carried out meanwhile (the reference server after its grace period).
    expect(keys(again, json(404, { id: 'not_found' })), 'removed meanwhile').to.deep.equal([]);
    expect(keys(again, json(200, worker))).to.not.deep.equal([]);
    expect(keys(again, json(202, worker))).to.not.deep.equal([]);
  });

  describe('which reader lies (model/readers.ts)', () => {
    const kept = { id: '11', name: 'k', profession: 'p' };
    const answers = (over: Partial<ReaderAnswers>): ReaderAnswers => ({
      expected: { '11': kept, '12': null },
      byId: { '11': kept, '12': null },
      listed: [{ ...kept }],
      listStatus: 200,
      headStatus: 200,
      ...over,
    });
    const named = (a: ReaderAnswers) =>
      lyingReaders(a).map((l) => `${l.reader}: ${signatureKey(l.found.signature)}`);

    it('names no reader when every reader agrees with the model', () => {
      expect(named(answers({}))).to.deep.equal([]);
    });

    it('names GET by id when it serves another user and the list agrees with the model', () => {
      const first = { id: '1', name: 'Ada', profession: 'Analyst' };
      expect(named(answers({ byId: { '11': first, '12': null } }))).to.deep.equal([
        'GET by id: GET by id | state-change | serves another user',
      ]);
    });

    it('names GET by id stale when it serves the user as it was before the POST, and the list shows the POST made', () => {
      const was = { ...kept, name: 'k-before' };
      expect(named(answers({ byId: { '11': was, '12': null }, before: { '11': was } }))).to.deep.equal([
        'GET by id: GET by id | state-change | stale: serves a user as it was before a POST',
      ]);
      // The POST not made (both readers show the user as before): a write's defect, no reader lies.
      expect(
        named(answers({ byId: { '11': was, '12': null }, listed: [was], before: { '11': was } })),
      ).to.deep.equal([]);
    });

    it('names the list stale when it shows the user as it was before the POST, and GET by id the POST made', () => {
      const was = { ...kept, name: 'k-before' };
      expect(named(answers({ listed: [was], before: { '11': was } }))).to.deep.equal([
        'GET list: GET list | state-change | stale: shows a user as it was before a POST',
      ]);
    });

    it('names GET by id stale where the list lies too, by a user GET by id first read after the same POST', () => {
      const was = { ...kept, name: 'k-before' };
      const fresh = { id: '13', name: 'f', profession: 'p' };
      const freshWas = { ...fresh, name: 'f-before' };
      const both = answers({
        expected: { '11': kept, '13': fresh, '12': null },
        byId: { '11': was, '13': fresh, '12': null },
        // A list frozen before the writes: it shows neither.
        listed: [],
        listedBefore: [],
        before: { '11': was, '13': freshWas },
        afterPost: { byId: { '13': fresh }, listed: [] },
      });
      expect(named(both)).to.include(
        'GET by id: GET by id | state-change | stale: serves a user as it was before a POST',
      );
      // The first read shows no POST made either: the POSTs did nothing, no reader lies for it.
      const none = {
        ...both,
        byId: { '11': was, '13': freshWas, '12': null },
        afterPost: { byId: { '13': freshWas } },
      };
      expect(named(none)).to.not.include(
        'GET by id: GET by id | state-change | stale: serves a user as it was before a POST',
      );
    });

    it('names the list stale after a POST by what it showed right after it, beside GET by id stale, and beside a deleted user', () => {
      const was = { ...kept, name: 'k-before' };
      const fresh = { id: '13', name: 'f', profession: 'p' };
      const freshWas = { ...fresh, name: 'f-before' };
      const removed = { id: '12', name: 'r', profession: 'q' };
      const base = answers({
        expected: { '11': kept, '13': fresh, '12': null },
        byId: { '11': was, '13': fresh, '12': null },
        listed: [kept, fresh],
        before: { '11': was, '13': freshWas },
        afterPost: { byId: { '13': fresh }, listed: [was, freshWas] },
      });
      expect(named(base)).to.deep.equal([
        'GET by id: GET by id | state-change | stale: serves a user as it was before a POST',
        'GET list: GET list | state-change | stale: shows a user as it was before a POST',
      ]);
      expect(
        named({ ...base, byId: { '11': kept, '13': fresh, '12': null }, listed: [kept, fresh, removed] }),
      ).to.deep.equal([
        'GET list: GET list | state-change | shows a deleted user',
        'GET list: GET list | state-change | stale: shows a user as it was before a POST',
      ]);
    });

    it('names the list stale after a POST beside GET by id serving another user, by the list renewed at the next write', () => {
      const first = { id: '1', name: 'Ada', profession: 'Analyst' };
      const fresh = { id: '13', name: 'f', profession: 'p' };
      const freshWas = { ...fresh, name: 'f-before' };
      const both = answers({
        expected: { '11': kept, '13': fresh, '12': null },
        byId: { '11': first, '13': first, '12': null },
        listed: [kept, fresh],
        before: { '13': freshWas },
        afterPost: { byId: { '13': first }, listed: [kept, freshWas] },
      });
      expect(named(both)).to.deep.equal([
        'GET by id: GET by id | state-change | serves another user',
        'GET list: GET list | state-change | stale: shows a user as it was before a POST',
      ]);
      // Still as before the POST at the end: the POST not made, not a list renewed late.
      expect(named({ ...both, listed: [kept, freshWas] })).to.deep.equal([
        'GET by id: GET by id | state-change | serves another user',
      ]);
    });

    it('names GET by id twice: a stale copy of one user, another user for another id', () => {
      const was = { ...kept, name: 'k-before' };
      const short = { id: '13', name: 's', profession: 't' };
      expect(
        named(
          answers({
            expected: { '11': kept, '13': short, '12': null },
            byId: { '11': was, '13': kept, '12': null },
            listed: [kept, short],
            before: { '11': was },
          }),
        ),
      ).to.deep.equal([
        'GET by id: GET by id | state-change | stale: serves a user as it was before a POST',
        'GET by id: GET by id | state-change | serves another user',
      ]);
    });

    it('names the list when it shows a removed user that GET by id no longer serves', () => {
      const removed = { id: '12', name: 'r', profession: 'q' };
      expect(named(answers({ listed: [kept, removed] }))).to.deep.equal([
        'GET list: GET list | state-change | shows a deleted user',
      ]);
    });

    it('names the list when, read right after a DELETE, it shows the user that GET by id then no longer serves (a list kept until the next PUT or POST)', () => {
      const removed = { id: '12', name: 'r', profession: 'q' };
      // At the end the list is true again (a later write renewed it).
      const listKept = answers({ afterDelete: { byId: { '12': null }, listed: [kept, removed] } });
      expect(named(listKept)).to.deep.equal(['GET list: GET list | state-change | shows a deleted user']);
      // GET by id still serving it then: the DELETE was not made yet (made late, or never): no reader lies.
      expect(
        named(answers({ afterDelete: { byId: { '12': removed }, listed: [kept, removed] } })),
      ).to.deep.equal([]);
    });

    it('names HEAD when it answers another status than GET of the list', () => {
      expect(named(answers({ headStatus: 404 }))).to.deep.equal([
        'HEAD list: HEAD list | status | not the status of GET',
      ]);
    });

    it('names no reader when both readers disagree with the model alike (a write, not a read)', () => {
      // The PUT stored nothing: neither reader shows the user.
      expect(named(answers({ byId: { '11': null, '12': null }, listed: [] }))).to.deep.equal([]);
      // The DELETE removed nothing: both readers still show the user.
      const removed = { id: '12', name: 'r', profession: 'q' };
      expect(named(answers({ byId: { '11': kept, '12': removed }, listed: [kept, removed] }))).to.deep.equal(
        [],
      );
    });

    it('names both when GET by id serves another user and the list shows a removed one', () => {
      const first = { id: '1', name: 'Ada', profession: 'Analyst' };
      const removed = { id: '12', name: 'r', profession: 'q' };
      expect(named(answers({ byId: { '11': first, '12': null }, listed: [kept, removed] }))).to.deep.equal([
        'GET by id: GET by id | state-change | serves another user',
        'GET list: GET list | state-change | shows a deleted user',
      ]);
    });

    it('names both when GET by id serves a user of another id and the list is stale (the list cannot show the user written)', () => {
      const first = { id: '1', name: 'Ada', profession: 'Analyst' };
      expect(
        named(answers({ byId: { '11': first, '12': null }, listed: [first], listedBefore: [first] })),
      ).to.deep.equal([
        'GET by id: GET by id | state-change | serves another user',
        'GET list: GET list | state-change | stale: leaves out users just written',
      ]);
      // GET by id serving a user of the id asked, other fields, beside a stale list: nothing tells which lies.
      const other = { ...kept, name: 'other' };
      expect(
        named(answers({ byId: { '11': other, '12': null }, listed: [first], listedBefore: [first] })),
      ).to.not.include('GET by id: GET by id | state-change | serves another user');
    });

    it('names the list when the DELETE removed a user listed before, not its own, and the list still shows it', () => {
      const first = { id: '1', name: 'Ada', profession: 'Analyst' };
      const removed = { id: '12', name: 'r', profession: 'q' };
      const missed = answers({ byId: { '11': kept, '12': removed }, listed: [kept, removed, first] });
      expect(named({ ...missed, byIdBefore: { '1': null } })).to.deep.equal([
        'GET list: GET list | state-change | shows a deleted user',
      ]);
      // The list no longer shows it (the DELETE hit another user: the write rules' finding), or GET by id
      // still serves it: no reader lies.
      expect(named({ ...missed, listed: [kept, removed], byIdBefore: { '1': null } })).to.deep.equal([]);
      expect(named({ ...missed, byIdBefore: { '1': first } })).to.deep.equal([]);
      // GET by id serving the first user for every id it holds: it still tells that user 1 is gone.
      const short = { id: '13', name: 's', profession: 't' };
      const both = answers({
        expected: { '11': kept, '13': short, '12': null },
        byId: { '11': kept, '13': kept, '12': kept },
        listed: [kept, short, removed, first],
        byIdBefore: { '1': null },
      });
      expect(named(both)).to.deep.equal([
        'GET by id: GET by id | state-change | serves another user',
        'GET list: GET list | state-change | shows a deleted user',
      ]);
    });

    describe("a read's disagreement that is a liar's lie (lieOf)", () => {
      const listLies = lyingReaders(answers({ listed: [kept, { id: '12', name: 'r', profession: 'q' }] }));
      const headLies = lyingReaders(answers({ headStatus: 404 }));
      const d = (operation: string, aspect: Aspect) => ({ signature: { operation, aspect, seen: 'x' } });

      it('is what the lying reader shows of the users, whatever the read names it (an emptied collection too)', () => {
        expect(lieOf(listLies, 'GET list', d('GET list', 'state-change'))?.defect).to.equal(
          'listShowsDeleted',
        );
        expect(lieOf(listLies, 'GET list', d('read of an emptied collection', 'default-user'))).to.not.equal(
          undefined,
        );
      });

      it("is not the list's form, nor a read through a reader that does not lie", () => {
        expect(lieOf(listLies, 'GET list', d('XML answer', 'body-shape'))).to.equal(undefined);
        expect(lieOf(listLies, 'GET by id', d('GET by id (existing id)', 'state-change'))).to.equal(
          undefined,
        );
        expect(lieOf([], 'GET list', d('GET list', 'state-change'))).to.equal(undefined);
      });

      it("is HEAD's status and headers when HEAD lies, not a body after HEAD", () => {
        expect(lieOf(headLies, 'HEAD list', d('HEAD list', 'status'))?.defect).to.equal('headListStatus');
        expect(lieOf(headLies, 'HEAD list', d('HEAD list', 'media-type'))).to.not.equal(undefined);
        expect(lieOf(headLies, 'HEAD list', d('HEAD list', 'body-shape'))).to.equal(undefined);
      });
    });

    describe('a user read when both readers lie (throughBothLiars)', () => {
      const first = { id: '1', name: 'Ada', profession: 'Analyst' };
      const removed = { id: '12', name: 'r', profession: 'q' };
      const listed = [first, kept, removed];

      it("takes a user GET by id serves (whichever) with the list's fields", () => {
        expect(throughBothLiars('11', first, listed)).to.deep.equal(kept);
      });

      it('takes no user where GET by id serves none, though the list shows it', () => {
        expect(throughBothLiars('12', null, listed)).to.equal(null);
      });

      it('takes no fields from a stale list: only whether GET by id serves a user at all', () => {
        expect(throughBothLiars('11', first, listed, 'listStale')).to.equal(undefined);
        expect(throughBothLiars('12', null, listed, 'listStale')).to.equal(null);
        expect(throughBothLiars('11', first, listed, 'listShowsDeleted')).to.deep.equal(kept);
      });

      it('cannot tell where GET by id is unreadable or the list does not show the one it serves', () => {
        expect(throughBothLiars('11', undefined, listed)).to.equal(undefined);
        expect(throughBothLiars('13', first, listed)).to.equal(undefined);
        expect(throughBothLiars('11', first, [...listed, kept])).to.equal(undefined);
      });
    });

    describe('a list that leaves out users GET by id serves', () => {
      const long = { id: '1000000011', name: 'l', profession: 'p' };
      const first = { id: '1', name: 'Ada', profession: 'Analyst' };
      const leaving = (listed: ReaderAnswers['listed'], listedBefore?: ReaderAnswers['listed']) =>
        answers({
          expected: { '11': kept, [long.id]: long, '12': null },
          byId: { '11': kept, [long.id]: long, '12': null },
          listed,
          ...(listedBefore ? { listedBefore } : {}),
        });

      it('names the list stale when it answers the list it answered before the writes', () => {
        expect(named(leaving([first], [first]))).to.deep.equal([
          'GET list: GET list | state-change | stale: leaves out users just written',
        ]);
      });

      it('names the list for long ids when it leaves out the longer ids only', () => {
        expect(named(leaving([first, kept], [first]))).to.deep.equal([
          'GET list: GET list | state-change | leaves out users with long ids',
        ]);
      });

      it('is true of the users it shows only when it lies by leaving out users (listShowsTruly)', () => {
        const removed = { id: '12', name: 'r', profession: 'q' };
        expect(listShowsTruly(lyingReaders(leaving([first, kept], [first])))).to.equal(true);
        // Stale: what it shows is the state before the writes; showing deleted users: not gone is shown.
        expect(listShowsTruly(lyingReaders(leaving([first], [first])))).to.equal(false);
        expect(listShowsTruly(lyingReaders(leaving([first, kept, removed], [first])))).to.equal(false);
        // GET by id lying says nothing of the list.
        expect(listShowsTruly(lyingReaders(answers({ byId: { '11': first, '12': null } })))).to.equal(true);
      });

      it("shows, with GET by id's user, a second user with one id where the list shows the id otherwise (shownTogether)", () => {
        const other = { ...kept, name: 'other' };
        expect(shownTogether([first, other], kept)).to.deep.equal([first, other, kept]);
        // The list shows it as served, or leaves the id out (it tells nothing of it): nothing added.
        expect(shownTogether([first, kept], kept)).to.deep.equal([first, kept]);
        expect(shownTogether([first], kept)).to.deep.equal([first]);
        expect(shownTogether([first], null)).to.deep.equal([first]);
      });

      describe('text outside ASCII', () => {
        const short = { id: '13', name: 's', profession: 't' };
        const accented = { id: '14', name: 'Zoë Ångström', profession: 'p' };
        const written = (listed: ReaderAnswers['listed']) =>
          answers({
            expected: { '11': kept, '13': short, '14': accented, [long.id]: long, '12': null },
            byId: { '11': kept, '13': short, '14': accented, [long.id]: long, '12': null },
            listed,
            listedBefore: [first],
          });

        it('names the list for text outside ASCII when it leaves out the one user with such text', () => {
          expect(named(written([first, kept, short, long]))).to.deep.equal([
            'GET list: GET list | state-change | leaves out users with non-ASCII names',
          ]);
        });

        it('names both causes when each alone explains a user left out', () => {
          expect(named(written([first, kept, short]))).to.deep.equal([
            'GET list: GET list | state-change | leaves out users with long ids',
            'GET list: GET list | state-change | leaves out users with non-ASCII names',
          ]);
        });

        it('names no cause where the list shows text outside ASCII, or no cause explains a user left out', () => {
          // It shows another user with such text: not the text (the long id is the cause).
          const other = { id: '15', name: 'Ünal', profession: 'p' };
          const both = answers({
            expected: { '11': kept, '14': accented, '15': other, [long.id]: long },
            byId: { '11': kept, '14': accented, '15': other, [long.id]: long },
            listed: [kept, accented, other],
          });
          expect(named(both)).to.deep.equal([
            'GET list: GET list | state-change | leaves out users with long ids',
          ]);
          expect(named({ ...both, listed: [kept, other, long] })).to.deep.equal([]);
          // A short ASCII user left out beside the accented one: neither cause explains it.
          expect(named(written([first, kept, long]))).to.deep.equal([]);
        });

        it('names it beside a list that shows a deleted user, and where GET by id serves another user', () => {
          const removed = { id: '12', name: 'r', profession: 'q' };
          expect(named(written([first, kept, short, long, removed]))).to.deep.equal([
            'GET list: GET list | state-change | shows a deleted user',
            'GET list: GET list | state-change | leaves out users with non-ASCII names',
          ]);
          // GET by id serves the first user for every id it holds: it still tells which ids it holds.
          const a = written([first, kept, short, long]);
          const servesFirst = { '11': first, '13': first, '14': first, [long.id]: first, '12': null };
          expect(named({ ...a, byId: servesFirst })).to.deep.equal([
            'GET by id: GET by id | state-change | serves another user',
            'GET list: GET list | state-change | leaves out users with non-ASCII names',
          ]);
        });

        it('names no cause where a user left out has both and none another needs', () => {
          const longAccented = { ...accented, id: '1000000014' };
          const a = answers({
            expected: { '11': kept, [longAccented.id]: longAccented },
            byId: { '11': kept, [longAccented.id]: longAccented },
            listed: [kept],
          });
          expect(named(a)).to.deep.equal([]);
        });
      });

      describe('a name another user has', () => {
        const short = { id: '13', name: 's', profession: 't' };
        // The name of `short`, another profession: identity by fields cannot merge the two.
        const sameName = { id: '16', name: 's', profession: 'u' };
        const accented = { id: '14', name: 'Zoë Ångström', profession: 'p' };
        const users = {
          '11': kept,
          '13': short,
          '14': accented,
          '16': sameName,
          [long.id]: long,
          '12': null,
        };
        const written = (listed: ReaderAnswers['listed']) =>
          answers({
            expected: users,
            byId: users,
            listed,
            listedBefore: [first],
          });

        it('names the list for one user per name when it leaves out the second user of a name', () => {
          expect(named(written([first, kept, short, accented, long]))).to.deep.equal([
            'GET list: GET list | state-change | leaves out users whose name another user has',
          ]);
        });

        it('names it beside text outside ASCII, and beside long ids, each explaining a user of its own', () => {
          expect(named(written([first, kept, short, long]))).to.deep.equal([
            'GET list: GET list | state-change | leaves out users with non-ASCII names',
            'GET list: GET list | state-change | leaves out users whose name another user has',
          ]);
          expect(named(written([first, kept, short, accented]))).to.deep.equal([
            'GET list: GET list | state-change | leaves out users with long ids',
            'GET list: GET list | state-change | leaves out users whose name another user has',
          ]);
        });

        it('names no name where the list shows two users of one name, or no user it shows has the name', () => {
          const third = { id: '17', name: 's', profession: 'v' };
          const three = answers({
            expected: { '11': kept, '13': short, '16': sameName, '17': third },
            byId: { '11': kept, '13': short, '16': sameName, '17': third },
            listed: [kept, short, sameName],
          });
          expect(named(three)).to.deep.equal([]);
          // Both users of the name left out: no user shown has it.
          expect(named(written([first, kept, accented, long]))).to.deep.equal([]);
          // The long-id list shows both users of the name.
          expect(named(written([first, kept, short, accented, sameName]))).to.deep.equal([
            'GET list: GET list | state-change | leaves out users with long ids',
          ]);
        });
      });

      it('names no reader when the omission shows neither cause (judged by the rules as before)', () => {
        // The shorter id left out, the longer one shown.
        expect(named(leaving([first, long], [first]))).to.deep.equal([]);
        // Everything left out, but the list changed since the writes began.
        expect(named(leaving([], [first]))).to.deep.equal([]);
        expect(named(answers({ listed: [] }))).to.deep.equal([]);
      });
    });
  });
});

describe('the model: a refused PUT named by its cause (issue 45, the explorer only)', () => {
  const stateAfter = (ops: Operation[]) => run([{ kind: 'list' }, ...ops]);
  const refusedPut = (before: State, user: { id: string; name: string; profession: string }) => {
    const { expected } = apply(before, { kind: 'put', user });
    const observed = ideal({ ...expected, body: { kind: 'result', word: 'failure' } });
    const answered = judge(expected, observed, noChoices()).disagreements;
    const back = { [user.id]: null };
    return {
      rules: judgeWrite(before, expected, observed, answered, back).map((d) => signatureKey(d.signature)),
      explorer: judgeWrite(before, expected, observed, answered, back, { causes: true }).map((d) =>
        signatureKey(d.signature),
      ),
    };
  };

  it('PUT of an id deleted before, refused: a deleted id kept reserved', () => {
    const before = stateAfter([
      { kind: 'put', user: { id: '7', name: 'n', profession: 'p' } },
      { kind: 'delete', id: '7' },
    ]);
    const found = refusedPut(before, { id: '7', name: 'n', profession: 'p' });
    expect(found.explorer).to.deep.equal(['PUT of a deleted id | result-word | failure']);
    expect(found.rules).to.deep.equal(['PUT | state-change | does what POST does']);
  });

  it('PUT of a new id refused while another user has its fields: users told apart by their fields', () => {
    const before = stateAfter([{ kind: 'put', user: { id: '8', name: 'n', profession: 'p' } }]);
    expect(refusedPut(before, { id: '7', name: 'n', profession: 'p' }).explorer).to.deep.equal([
      'PUT (new id) | state-change | refused: another user has the same name and profession',
    ]);
    // No cause in sight: what POST does, as before.
    expect(refusedPut(before, { id: '7', name: 'm', profession: 'p' }).explorer).to.deep.equal([
      'PUT | state-change | does what POST does',
    ]);
  });
});

describe("the model: a write that does the other verb's change, answered with its own right word (issue 45)", () => {
  const before = run([{ kind: 'list' }, { kind: 'put', user: { id: '7', name: 'n', profession: 'p' } }]);
  const written = (op: Operation, word: 'success' | 'failure', back: ReadBack) => {
    const { expected } = apply(before, op);
    const observed = ideal({ ...expected, body: { kind: 'result', word } });
    const answered = judge(expected, observed, noChoices()).disagreements;
    return judgeWrite(before, expected, observed, answered, back).map((d) => signatureKey(d.signature));
  };

  it('PUT of an existing id answered failure, as due, and the user replaced: it does what POST does', () => {
    const user = { id: '7', name: 'm', profession: 'q' };
    expect(written({ kind: 'put', user }, 'failure', { 7: user })).to.deep.equal([
      'PUT | state-change | does what POST does',
    ]);
  });

  it('POST of an unknown id answered failure, as due, and the user created: it does what PUT does', () => {
    const user = { id: '8', name: 'm', profession: 'q' };
    expect(written({ kind: 'post', user }, 'failure', { 8: user })).to.deep.equal([
      'POST | state-change | does what PUT does',
    ]);
  });

  it('PUT of a new id answered success, as due, and nothing stored: not stored (nothing changed)', () => {
    const user = { id: '8', name: 'm', profession: 'q' };
    expect(written({ kind: 'put', user }, 'success', { 8: null })).to.deep.equal([
      'PUT (new id) | state-change | not stored',
    ]);
  });
});
