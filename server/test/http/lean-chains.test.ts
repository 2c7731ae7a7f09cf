import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import restify, { type Next, type Request, type Response } from 'restify';
import { request } from '../../../testing/http.ts';
import { ConflictError, UnauthorizedError } from '../../src/errors.ts';
import { leanHandlerChains } from '../../src/http/restify.ts';

/**
 * leanHandlerChains (http/restify.ts) replaces parts of restify's request cycle: these hold it to
 * restify's own behaviour where the server relies on it, and fail if a restify upgrade leaves the
 * patch without effect (the handler would run a tick after routing again).
 */
describe('http: restify handler chains without deferral (leanHandlerChains)', () => {
  let server: restify.Server;
  let base: string;
  const seen: Array<{ path: string; sameTick: boolean; timers: unknown }> = [];

  before(async () => {
    server = restify.createServer({ name: '', handleUncaughtExceptions: false });
    leanHandlerChains(server);
    let routedThisTick = false;
    server.on('routed', () => {
      routedThisTick = true;
      process.nextTick(() => {
        routedThisTick = false;
      });
    });
    const note = (req: Request) =>
      seen.push({
        path: req.getPath(),
        sameTick: routedThisTick,
        timers: (req as unknown as { timers: unknown[] }).timers,
      });
    server.get('/resolves', async (req: Request, res: Response) => {
      note(req);
      await null;
      res.send(200, { ok: true });
    });
    server.get('/rejects-string', async (req: Request) => {
      note(req);
      await null;
      throw 'not an Error';
    });
    server.get('/rejects-error', async () => {
      await null;
      throw new ConflictError('taken');
    });
    server.get('/calls-next', (req: Request, res: Response, next: Next) => {
      note(req);
      res.send(200, { via: 'next' });
      next();
    });
    server.get(
      '/two-handlers',
      (_req: Request, _res: Response, next: Next) => next(),
      (req: Request, res: Response, next: Next) => {
        note(req);
        res.send(200, { chain: 2 });
        next();
      },
    );
    answerErrorsByStatus(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('calls a route of one handler in the tick it was routed in, and records no handler timers', async () => {
    const reply = await request(`${base}/resolves`);
    expect(reply.status).to.equal(200);
    expect(JSON.parse(reply.body)).to.deep.equal({ ok: true });
    expect(seen.find((s) => s.path === '/resolves')).to.deep.equal({
      path: '/resolves',
      sameTick: true,
      timers: [],
    });
  });

  it('a handler rejected with a non-Error is a server error; an Error keeps its status', async () => {
    const reply = await request(`${base}/rejects-string`);
    expect(reply.status).to.equal(500);
    expect(JSON.parse(reply.body).error).to.match(/not an Error/);
    const conflict = await request(`${base}/rejects-error`);
    expect(conflict.status).to.equal(409);
    expect(JSON.parse(conflict.body)).to.deep.equal({ error: 'taken' });
  });

  it('a handler that calls next, and a chain of two handlers, answer as restify runs them', async () => {
    expect(JSON.parse((await request(`${base}/calls-next`)).body)).to.deep.equal({ via: 'next' });
    expect(JSON.parse((await request(`${base}/two-handlers`)).body)).to.deep.equal({ chain: 2 });
  });

  it('a pre handler (the bearer token check) still runs before routing', async () => {
    const other = restify.createServer({ name: '', handleUncaughtExceptions: false });
    leanHandlerChains(other);
    answerErrorsByStatus(other);
    other.pre((req: Request, _res: Response, next: Next) => {
      next(req.headers.authorization ? undefined : new UnauthorizedError());
    });
    other.get('/x', async (_req: Request, res: Response) => {
      res.send(200, { in: true });
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}/x`;
      expect((await request(url)).status).to.equal(401);
      const allowed = await request(url, { headers: { Authorization: 'Bearer t' } });
      expect([allowed.status, JSON.parse(allowed.body)]).to.deep.equal([200, { in: true }]);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});

/** Errors answered with their status (the server's catalogue errors carry `status`) and message. */
function answerErrorsByStatus(server: restify.Server): void {
  server.on(
    'restifyError',
    (_req: Request, res: Response, err: Error & { status?: number }, done: () => void) => {
      res.send(err.status ?? 500, { error: err.message });
      done();
    },
  );
}
