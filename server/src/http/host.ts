import net from 'node:net';

/**
 * The Host header, by RFC 3986's grammar: an IP literal in brackets, or a reg-name / IPv4 address
 * (unreserved and sub-delimiter characters, percent-escapes), then an optional port. What the WHATWG URL
 * parser would reject (`a%zz`, `a b`, `[`, `a:99999999`) and what would smuggle a path (`x/y?`) fail here.
 */
const HOST_HEADER = /^(\[[0-9A-Fa-f:.]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+)(?::(\d{0,5}))?$/;

export interface HostName {
  /** Lower-cased, without brackets and without a trailing dot. */
  name: string;
  /** True for an IPv4 or IPv6 address (which DNS rebinding cannot produce). */
  isAddress: boolean;
}

/** Parses a Host header value; undefined when it is not a valid `host[:port]`. */
export function parseHostHeader(value: string): HostName | undefined {
  const match = HOST_HEADER.exec(value);
  if (!match) return undefined;
  const [, host = '', port] = match;
  if (port !== undefined && port !== '' && Number(port) > 65535) return undefined;
  if (host.startsWith('[')) {
    const address = host.slice(1, -1);
    return net.isIPv6(address) ? { name: address.toLowerCase(), isAddress: true } : undefined;
  }
  const name = host.toLowerCase().replace(/\.$/, '');
  return { name, isAddress: net.isIPv4(name) };
}

/**
 * Which host names requests may name (ALLOWED_HOSTS). An entry is a name (`api.example.com`) or, with a
 * leading dot, a domain and every name under it (`.example.com`). IP addresses are always allowed: a DNS
 * rebinding attack needs a name the attacker controls, and a page can only send an address as Host when
 * it was itself loaded from that address.
 */
export function hostAllowed(host: HostName, allowed: readonly string[]): boolean {
  if (host.isAddress) return true;
  for (const entry of allowed) {
    if (
      entry.startsWith('.') ? host.name === entry.slice(1) || host.name.endsWith(entry) : host.name === entry
    )
      return true;
  }
  return false;
}

/** A host name as ALLOWED_HOSTS may list it: DNS labels, optionally with a leading dot. */
export const ALLOWED_HOST_ENTRY =
  /^\.?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

/**
 * The host (name and port) an Origin header names, comparable with a Host header's value: lower-cased,
 * default port left out. Undefined for `null` and anything that is not a URL.
 */
export function originHost(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.host === '' ? undefined : url.host;
  } catch {
    return undefined;
  }
}

/** The same Host value the way `originHost` writes it (the Host header is already known to be valid). */
export function comparableHost(hostHeader: string): string | undefined {
  return originHost(`http://${hostHeader}`);
}
