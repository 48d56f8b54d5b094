/**
 * Which network addresses OnAir's servers may reach on a creator's behalf (web-page sources
 * rendered by the render worker, custom RTMP URLs pushed by the media worker). Pure functions over
 * literal IPs and URLs, no DNS: callers resolve names themselves and check every resolved address,
 * then connect to the checked address (so a name that re-resolves to 127.0.0.1 later cannot slip
 * through). Shared by the render worker's egress proxy and the api.
 */

/** Why an address is refused; `public` is the only class that may be reached. */
export const addressClasses = ['public', 'loopback', 'private', 'link-local', 'metadata', 'cgnat', 'unspecified', 'multicast', 'reserved'] as const;
export type AddressClass = (typeof addressClasses)[number];

/** What a creator reads when a page or destination is refused because of where it points. */
export const addressClassReasons: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'it points at a loopback address ({address}), that is the server itself',
  private: 'it points at a private network address ({address})',
  'link-local': 'it points at a link-local address ({address})',
  metadata: 'it points at the cloud metadata service ({address})',
  cgnat: 'it points at a carrier-internal (CGNAT) address ({address})',
  unspecified: 'it points at an unspecified address ({address})',
  multicast: 'it points at a multicast or broadcast address ({address})',
  reserved: 'it points at a reserved address range ({address})',
};

export function addressRefusalReason(cls: Exclude<AddressClass, 'public'>, address: string): string {
  return addressClassReasons[cls].replace('{address}', address);
}

/** The cloud metadata endpoints (AWS, GCP, Azure, OpenStack share 169.254.169.254; AWS also serves IPv6 fd00:ec2::254). */
const METADATA_V4 = [169, 254, 169, 254] as const;
const METADATA_V6 = 'fd00:ec2::254';

/** Parses a dotted-quad IPv4 literal (decimal only; URL parsers canonicalise other spellings before this). */
export function parseIPv4(text: string): [number, number, number, number] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return null;
  const parts = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] as [number, number, number, number];
  return parts.every((p) => p <= 255) ? parts : null;
}

/**
 * The IPv4 spellings the C resolver (inet_aton, behind getaddrinfo) accepts besides the dotted quad:
 * one to four parts, each decimal, octal (leading 0) or hex (0x), the last filling the remaining
 * bytes: `2130706433`, `0x7f.1`, `127.1`, `0177.0.0.1` all mean 127.0.0.1. Names outside URL
 * parsers' reach (rtmp:// hosts are opaque to WHATWG URL) must be read the way the connection
 * will read them. Returns the dotted quad, or null when the text is not such a literal.
 */
export function canonicalIPv4(text: string): string | null {
  const parts = text.split('.');
  if (parts.length < 1 || parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]*$/.test(part)) value = part.length === 1 ? 0 : parseInt(part.slice(1), 8);
    else if (/^[1-9][0-9]*$/.test(part)) value = parseInt(part, 10);
    else return null;
    if (!Number.isSafeInteger(value)) return null;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255)) return null;
  const room = 4 - values.length;
  if (last >= 2 ** (8 * room)) return null;
  const bytes = [...values];
  for (let i = room - 1; i >= 0; i--) bytes.push(Math.floor(last / 2 ** (8 * i)) % 256);
  return bytes.join('.');
}

/**
 * A host as a connection will use it: lower case, without the trailing dot(s) of a fully qualified
 * name (`localhost.`, `127.0.0.1.` reach the same place as without), IPv4 literals in any spelling
 * as a dotted quad, IPv6 literals without brackets.
 */
export function canonicalHost(host: string): string {
  let h = host.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) return h.slice(1, -1);
  h = h.replace(/\.+$/, '');
  return canonicalIPv4(h) ?? h;
}

/** Parses an IPv6 literal (with or without brackets and zone id) into its eight 16-bit groups. */
export function parseIPv6(text: string): number[] | null {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':')) return null;
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIPv4(tail);
    if (!v4) return null;
    s = `${s.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parseGroups = (part: string): number[] | null => {
    if (part === '') return [];
    const groups = part.split(':');
    const out: number[] = [];
    for (const g of groups) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = parseGroups(halves[0] ?? '');
  if (!head) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const rest = parseGroups(halves[1] ?? '');
  if (!rest || head.length + rest.length > 7) return null;
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}

function classifyIPv4([a, b, c, d]: readonly [number, number, number, number]): AddressClass {
  if (a === METADATA_V4[0] && b === METADATA_V4[1] && c === METADATA_V4[2] && d === METADATA_V4[3]) return 'metadata';
  if (a === 0) return 'unspecified'; // 0.0.0.0/8 "this network": connects to the local host on Linux
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 100 && b >= 64 && b <= 127) return 'cgnat';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a === 255 && b === 255 && c === 255 && d === 255) return 'multicast';
  if (
    a >= 240 || // 240/4 reserved
    (a === 192 && b === 0 && c === 0) || // 192.0.0/24 IETF protocol assignments
    (a === 192 && b === 0 && c === 2) || // TEST-NET-1
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) || // TEST-NET-2
    (a === 203 && b === 0 && c === 113) // TEST-NET-3
  ) {
    return 'reserved';
  }
  return 'public';
}

function classifyIPv6(g: number[]): AddressClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const v4At = (hi: number, lo: number): [number, number, number, number] => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];
  const firstSixZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstSixZero && g5 === 0 && g6 === 0 && g7 === 0) return 'unspecified';
  if (firstSixZero && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) reach the IPv4 address.
  if (firstSixZero && (g5 === 0xffff || g5 === 0)) return classifyIPv4(v4At(g6, g7));
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) embed an IPv4 address that the gateway reaches.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return classifyIPv4(v4At(g6, g7));
  if (g0 === 0x2002) return classifyIPv4(v4At(g1, g2));
  const text = g.map((x) => x.toString(16)).join(':');
  if (
    text ===
    parseIPv6(METADATA_V6)
      ?.map((x) => x.toString(16))
      .join(':')
  )
    return 'metadata';
  if ((g0 & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return 'private'; // fec0::/10 deprecated site-local
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if (g0 === 0x2001 && g1 === 0xdb8) return 'reserved'; // documentation
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return 'reserved'; // discard-only 100::/64
  if (g0 === 0x2001 && g1 < 0x200) return 'reserved'; // 2001::/23 IETF protocol assignments (Teredo, ORCHID…)
  return 'public';
}

/** Classifies a literal IP address; `null` when the text is not an IP literal. */
export function classifyIp(ip: string): AddressClass | null {
  const v4 = parseIPv4(ip);
  if (v4) return classifyIPv4(v4);
  const v6 = parseIPv6(ip);
  if (v6) return classifyIPv6(v6);
  return null;
}

/** The result of checking where a URL points before any name is resolved. */
export type UrlTargetCheck =
  | { ok: true; url: URL; host: string; port: number /** the host when it is an IP literal */; ip: string | null }
  | { ok: false; code: 'invalid-url' | 'scheme-not-allowed' | Exclude<AddressClass, 'public'>; reason: string };

/**
 * Checks the parts of a URL that need no DNS: a parsable http(s) URL whose host, when it is an IP
 * literal, is public. Names are left to the caller's resolver (and refused there when they resolve
 * to a non-public address); `localhost` names never reach a resolver.
 */
export function checkUrlTarget(raw: string, schemes: readonly string[] = ['http:', 'https:']): UrlTargetCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, code: 'invalid-url', reason: 'the address is not a valid URL' };
  }
  if (!schemes.includes(url.protocol)) {
    return {
      ok: false,
      code: 'scheme-not-allowed',
      reason: `only ${schemes.map((s) => s.replace(':', '')).join(' and ')} addresses can be loaded, not ${url.protocol.replace(':', '')}`,
    };
  }
  const host = canonicalHost(url.hostname);
  const port = url.port !== '' ? Number(url.port) : defaultPort(url.protocol);
  const lower = host;
  if (lower === 'localhost' || lower.endsWith('.localhost')) {
    return { ok: false, code: 'loopback', reason: addressRefusalReason('loopback', host) };
  }
  const cls = classifyIp(host);
  if (cls !== null && cls !== 'public') return { ok: false, code: cls, reason: addressRefusalReason(cls, host) };
  return { ok: true, url, host, port, ip: cls === null ? null : host };
}

function defaultPort(protocol: string): number {
  switch (protocol) {
    case 'https:':
    case 'wss:':
      return 443;
    case 'rtmp:':
      return 1935;
    case 'rtmps:':
      return 443;
    default:
      return 80;
  }
}

/**
 * An operator's allowlist entry (`host:port`, as in RENDER_ALLOWED_HOSTS) lets one specific
 * private endpoint through (a local test server, an in-cluster overlay service). Matching is on
 * the name the page asked for and the port, never on the resolved address.
 */
export function parseHostPortList(text: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const entry of (text ?? '').split(',')) {
    const e = entry.trim().toLowerCase();
    if (e === '') continue;
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/.test(e)) throw new Error(`allowlist entry "${entry}" is not host:port`);
    out.add(e);
  }
  return out;
}

export function hostPortKey(host: string, port: number): string {
  const h = host.toLowerCase();
  return h.includes(':') && !h.startsWith('[') ? `[${h}]:${port}` : `${h}:${port}`;
}
