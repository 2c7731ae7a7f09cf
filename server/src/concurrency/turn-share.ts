/**
 * Work shared out over the event loop's turns: at most `perTurn` pieces of it run in one turn, the rest
 * wait for the next turns (setImmediate), so that a request arriving meanwhile waits behind at most that
 * much of it. The lists take a place before rendering each chunk (users/list.ts): ten large lists at once
 * would otherwise render ten chunks back to back in one turn, and every single-user read waits behind
 * them all (measured: docs/listing.md). Work waits in the order it asked.
 */
export class TurnShare {
  private taken = 0;
  private readonly waiting: Array<() => void> = [];
  private nextTurnSet = false;

  constructor(private readonly perTurn: number) {}

  /** Undefined when this turn has room (go on at once), else a place in a later turn. */
  take(): Promise<void> | undefined {
    this.setNextTurn();
    if (this.taken < this.perTurn && this.waiting.length === 0) {
      this.taken++;
      return undefined;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private setNextTurn(): void {
    if (this.nextTurnSet) return;
    this.nextTurnSet = true;
    setImmediate(() => this.nextTurn());
  }

  private nextTurn(): void {
    this.nextTurnSet = false;
    this.taken = 0;
    while (this.taken < this.perTurn && this.waiting.length > 0) {
      this.taken++;
      this.waiting.shift()?.();
    }
    if (this.waiting.length > 0) this.setNextTurn();
  }
}
