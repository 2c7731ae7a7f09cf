import { expect } from 'chai';
import { TurnShare } from '../../src/concurrency/turn-share.ts';

/** The event loop's turns, counted by a setImmediate chain (a check phase each), until stopped. */
function turnCounter() {
  let turn = 0;
  let on = true;
  const next = () => {
    if (!on) return;
    turn++;
    setImmediate(next);
  };
  setImmediate(next);
  return {
    now: () => turn,
    stop: () => {
      on = false;
    },
  };
}

describe('concurrency/turn-share: TurnShare', () => {
  for (const perTurn of [1, 2, 3]) {
    it(`runs at most ${perTurn} piece(s) of work in one turn of the event loop, every piece in the order asked`, async () => {
      const share = new TurnShare(perTurn);
      const turns = turnCounter();
      const ran: Array<{ piece: number; turn: number }> = [];
      await Promise.all(
        Array.from({ length: 20 }, async (_, piece) => {
          await share.take();
          ran.push({ piece, turn: turns.now() });
        }),
      );
      turns.stop();
      expect(ran.map((r) => r.piece)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i));
      const perTurnSeen = new Map<number, number>();
      for (const r of ran) perTurnSeen.set(r.turn, (perTurnSeen.get(r.turn) ?? 0) + 1);
      expect(Math.max(...perTurnSeen.values())).to.equal(perTurn);
      expect(perTurnSeen.size).to.equal(Math.ceil(20 / perTurn));
    });
  }

  it('lets work go on at once while its turn has room, and again in a later turn once the queue is empty', async () => {
    const share = new TurnShare(2);
    expect(share.take()).to.equal(undefined);
    expect(share.take()).to.equal(undefined);
    const third = share.take();
    expect(third).to.be.instanceOf(Promise);
    await third;
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(share.take()).to.equal(undefined);
  });
});
