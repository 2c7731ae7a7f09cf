/**
 * A rule's failure carries the exchange that decided it (support/failures.ts): the report shows that
 * exchange, not the last one sent, and nothing reads it back out of the message.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

describe("a failed expectation about an answer (support/http.ts's expectOn)", () => {
  // support/http.ts needs tsx (parameter properties), not the type stripping this self-test runs with.
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tools', 'expect-on.ts');
  const out = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' }));

  it('carries the exchange of the answer it was about, and quotes that answer', () => {
    expect(out.passes).to.deep.equal({ threw: false });
    expect(out.fails).to.include({ threw: true, typed: true, carries: 'curl first' });
    expect(out.fails.message).to.include('the create: PUT /UserService/users → 500');
    expect(out.fails.message).to.include('toBe');
  });

  it('does so through .not too', () => {
    expect(out.not).to.include({ threw: true, typed: true, carries: 'curl first' });
  });

  it('without an answer, fails carrying none (the rule then shows its last exchange)', () => {
    expect(out.noReply).to.include({ threw: true, typed: true });
    expect(out.noReply.carries).to.equal(undefined);
    expect(out.noReply.message).to.include('bodies');
  });
});
