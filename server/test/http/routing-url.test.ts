import { expect } from 'chai';
import fc from 'fast-check';
import { routingUrl } from '../../src/http/middleware.ts';

const ORIGIN = 'http://localhost';

/** What the URL parser makes of a target (the routing URL before the plain-path shortcut). */
function parsed(target: string): Pick<URL, 'pathname' | 'search' | 'href' | 'origin'> {
  const { pathname, search, href, origin } = new URL(ORIGIN + target);
  return { pathname, search, href, origin };
}

const view = (url: Pick<URL, 'pathname' | 'search' | 'href' | 'origin'>) => ({
  pathname: url.pathname,
  search: url.search,
  href: url.href,
  origin: url.origin,
});

describe('routing URL of a request target', () => {
  it('property: a path gets the pathname, search, href and origin the URL parser gives it', () => {
    // Every character a path may hold, and those the parser rewrites (escapes, dot segments, backslash, query).
    const unit = fc.constantFrom(...'/./..aZ09-_~!$&\'()*+,;=:@%2e%2E%zz \\?#"<>`{}^|é\t'.split(''));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 30 }), (units) => {
        const target = `/${units.join('')}`;
        expect(view(routingUrl(target)), target).to.deep.equal(parsed(target));
      }),
      { numRuns: 5000 },
    );
  });

  it('keeps the usual targets and dot segments as the parser does', () => {
    for (const target of [
      '/UserService/users/1',
      '//x/y',
      '/a/./b',
      '/a/../b',
      '/.well-known/x',
      '/a.b/c.',
      '/',
    ]) {
      expect(view(routingUrl(target)), target).to.deep.equal(parsed(target));
    }
  });
});
