/**
 * For selftest/failures.test.ts: expectOn's failures, through Playwright's own matchers. Prints, for
 * each case, whether it threw, the error's class and message, and which exchange it carries, as JSON.
 */

import type { Exchange } from '../../support/exchange.ts';
import { ExchangeFailure } from '../../support/failures.ts';
import { expectOn, type Reply } from '../../support/http.ts';

function replyWith(status: number, curl: string): Reply {
  const text = '<result>failure</result>';
  const exchange = { curl } as Exchange;
  const headers = { 'content-type': 'application/xml' };
  return {
    method: 'PUT',
    path: '/UserService/users',
    status,
    headers,
    body: Buffer.from(text),
    text,
    exchange,
  };
}

function outcome(check: () => unknown) {
  try {
    check();
    return { threw: false };
  } catch (err) {
    const exchange = (err as ExchangeFailure).exchange;
    return {
      threw: true,
      typed: err instanceof ExchangeFailure,
      message: (err as Error).message,
      carries: exchange?.curl,
    };
  }
}

const first = replyWith(500, 'curl first');
const second = replyWith(200, 'curl second');
console.log(
  JSON.stringify({
    passes: outcome(() => expectOn(second, second.status).toBe(200)),
    fails: outcome(() => expectOn(first, first.status, 'the create').toBe(200)),
    not: outcome(() => expectOn(first, first.status).not.toBe(500)),
    noReply: outcome(() => expectOn(undefined, [1], 'bodies').toEqual([])),
  }),
);
