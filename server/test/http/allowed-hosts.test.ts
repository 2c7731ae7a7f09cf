import { expect } from 'chai';
import { loadConfig } from '../../src/config.ts';
import { hostAllowed, parseHostHeader } from '../../src/http/host.ts';

describe('Host header and ALLOWED_HOSTS (issue 22)', () => {
  it('parses host[:port] by RFC 3986 and refuses what the URL parser would reject or what carries a path', () => {
    expect(parseHostHeader('127.0.0.1:8080')).to.deep.equal({ name: '127.0.0.1', isAddress: true });
    expect(parseHostHeader('[::1]:80')).to.deep.equal({ name: '::1', isAddress: true });
    expect(parseHostHeader('LocalHost.')).to.deep.equal({ name: 'localhost', isAddress: false });
    expect(parseHostHeader('a:')).to.deep.equal({ name: 'a', isAddress: false });
    for (const bad of [
      'a%zz',
      'a b',
      '[',
      ']',
      'a:99999999',
      '[::1',
      'x/UserService/users?',
      'x?y',
      'a@b',
      'a\\b',
      '',
      '[zz]',
    ]) {
      expect(parseHostHeader(bad), bad).to.equal(undefined);
    }
  });

  it('allows listed names, names under a listed domain, and every IP address', () => {
    const allowed = ['localhost', '.example.org'];
    const ok = (value: string) => hostAllowed(parseHostHeader(value)!, allowed);
    expect(['localhost:8080', 'example.org', 'api.example.org', '10.1.2.3', '[::1]'].map(ok)).to.deep.equal([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(
      ['evil.example', 'localhost.evil.example', 'example.org.evil', 'xexample.org'].map(ok),
    ).to.deep.equal([false, false, false, false]);
  });

  it('defaults to localhost on a loopback HOST, to any name otherwise; * and lists are read, junk refused', () => {
    expect(loadConfig({}).allowedHosts).to.deep.equal(['localhost']);
    expect(loadConfig({ HOST: '::1' }).allowedHosts).to.deep.equal(['localhost']);
    expect(loadConfig({ HOST: '0.0.0.0' }).allowedHosts).to.equal(undefined);
    expect(loadConfig({ ALLOWED_HOSTS: '*' }).allowedHosts).to.equal(undefined);
    expect(loadConfig({ ALLOWED_HOSTS: ' API.example.com., .internal ' }).allowedHosts).to.deep.equal([
      'api.example.com',
      '.internal',
    ]);
    expect(() => loadConfig({ ALLOWED_HOSTS: 'a b' })).to.throw(/ALLOWED_HOSTS/);
    expect(() => loadConfig({ ALLOWED_HOSTS: 'http://x' })).to.throw(/ALLOWED_HOSTS/);
  });
});
