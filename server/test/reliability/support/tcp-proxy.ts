import net from 'node:net';

/**
 * A TCP proxy on loopback between the server and Redis, to play a bad network: it can add latency to
 * every chunk in both directions (order kept), cut every connection at once, or black-hole the traffic
 * (connections are accepted and bytes are held, as on a partitioned network where TCP keeps
 * retransmitting; `restore()` lets them through again, `cutAll()` ends them instead).
 */
export class TcpProxy {
  private readonly server: net.Server;
  private readonly pairs = new Set<Pair>();
  private delay = 0;
  private holding = false;
  port = 0;
  /** Connections accepted so far. */
  accepted = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = net.createServer((client) => this.accept(client));
  }

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetHost, targetPort);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.port = (proxy.server.address() as net.AddressInfo).port;
    return proxy;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Latency added to every chunk, each way. */
  setDelay(ms: number): void {
    this.delay = ms;
  }

  /** Holds every byte (existing and new connections) until `restore()` or `cutAll()`. */
  blackhole(): void {
    this.holding = true;
  }

  restore(): void {
    this.holding = false;
    for (const pair of this.pairs) pair.flush();
  }

  /** Resets every connection (both sides see it closed); new ones are accepted as before. */
  cutAll(): number {
    const count = this.pairs.size;
    for (const pair of [...this.pairs]) pair.destroy();
    return count;
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    this.accepted++;
    const upstream = net.connect(this.targetPort, this.targetHost);
    const pair = new Pair(
      client,
      upstream,
      () => this.delay,
      () => this.holding,
    );
    this.pairs.add(pair);
    pair.onClose(() => this.pairs.delete(pair));
  }
}

class Pair {
  private readonly held: Array<{ to: net.Socket; chunk: Buffer }> = [];
  /** Per direction, the delayed chunks in arrival order, each with the time it is due. */
  private readonly delayed = new Map<net.Socket, Array<{ due: number; chunk: Buffer }>>();
  private closed = false;
  private readonly closeHandlers: Array<() => void> = [];

  constructor(
    private readonly client: net.Socket,
    private readonly upstream: net.Socket,
    private readonly delay: () => number,
    private readonly holding: () => boolean,
  ) {
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      from.on('data', (chunk: Buffer) => this.forward(to, chunk));
      from.on('error', () => this.destroy());
      from.on('close', () => this.destroy());
    }
  }

  onClose(handler: () => void): void {
    this.closeHandlers.push(handler);
  }

  flush(): void {
    for (const { to, chunk } of this.held.splice(0)) this.forward(to, chunk);
  }

  destroy(): void {
    if (this.closed) return;
    this.closed = true;
    this.client.resetAndDestroy();
    if (this.upstream.readyState === 'opening') this.upstream.destroy();
    else this.upstream.resetAndDestroy();
    for (const handler of this.closeHandlers) handler();
  }

  private forward(to: net.Socket, chunk: Buffer): void {
    if (this.closed) return;
    if (this.holding()) {
      this.held.push({ to, chunk });
      return;
    }
    const delay = this.delay();
    const queue = this.delayed.get(to);
    if (delay <= 0 && !queue) {
      to.write(chunk);
      return;
    }
    // One queue per direction, written from its head only: chunks keep their order whatever the delay
    // did meanwhile. (A timer per chunk did not: timers of different lengths, set in one long
    // event-loop turn when the delay dropped, could fire out of order and corrupt the stream.)
    const due = performance.now() + delay;
    if (queue) {
      queue.push({ due, chunk });
      return;
    }
    this.delayed.set(to, [{ due, chunk }]);
    this.drainLater(to, delay);
  }

  private drainLater(to: net.Socket, ms: number): void {
    setTimeout(
      () => {
        const queue = this.delayed.get(to) ?? [];
        const now = performance.now();
        let head = queue[0];
        while (head && head.due <= now) {
          queue.shift();
          if (!this.closed) to.write(head.chunk);
          head = queue[0];
        }
        if (head) this.drainLater(to, head.due - now);
        else this.delayed.delete(to);
      },
      Math.max(0, ms),
    );
  }
}
