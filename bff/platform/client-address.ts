/**
 * Who is asking (DESIGN §12): the socket's peer, unless that peer is one of our own
 * proxies (TRUSTED_PROXIES), in which case the right-most X-Forwarded-For hop that is
 * not ours. A header a client sends itself never decides who it is, so throttles,
 * audit entries and receipts cannot be steered by it.
 */

type Network = { bits: 32 | 128; base: bigint; prefix: number };

/** Whatever can tell a request's socket peer: Bun's server does. */
type PeerSource = { requestIP(request: Request): { address: string } | null };

/**
 * Peer addresses: the address itself (tests, through `withPeerAddress`), or the server that
 * can tell it (server.ts, through `withPeerSource`), asked only when someone needs it: most
 * requests never do, and asking is a system call. Kept in a symbol-keyed property of the
 * request rather than a WeakMap: a WeakMap entry for every request that passes cost about
 * 0.15–0.2 µs of set-up and collection, where a cached cabinet call costs about 20.
 */
const peerKey = Symbol("peer");
type CarriesPeer = { [peerKey]?: string | PeerSource };

export function withPeerAddress(request: Request, address: string): Request {
  (request as CarriesPeer)[peerKey] = normalize(address);
  return request;
}

export function withPeerSource(request: Request, source: PeerSource): Request {
  (request as CarriesPeer)[peerKey] = source;
  return request;
}

/** The socket's peer, whatever any header says (loopback for in-process calls). */
export function peerOf(request: Request): string {
  const known = (request as CarriesPeer)[peerKey];
  if (known === undefined || typeof known === "string") return known ?? inProcess;
  const address = normalize(known.requestIP(request)?.address ?? inProcess);
  (request as CarriesPeer)[peerKey] = address;
  return address;
}

/** The address when no socket is known (in-process calls): loopback, like the sandbox's own calls. */
const inProcess = "127.0.0.1";

function normalize(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, "");
  // IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return (mapped?.[1] ?? trimmed).toLowerCase();
}

function parseIPv4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseIPv6(text: string): bigint | undefined {
  if (!/^[0-9a-f:.]+$/i.test(text) || text.split("::").length > 2) return undefined;
  const [head = "", tail] = text.split("::");
  const groups = (part: string) => (part ? part.split(":") : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  // An embedded IPv4 tail (::ffff:1.2.3.4) counts as two groups.
  const last = (tail === undefined ? left : right).at(-1);
  const v4 = last?.includes(".") ? parseIPv4(last) : undefined;
  if (last?.includes(".")) {
    if (v4 === undefined) return undefined;
    (tail === undefined ? left : right).splice(-1, 1, (v4 >> 16n).toString(16), (v4 & 0xffffn).toString(16));
  }
  const missing = 8 - left.length - right.length;
  if ((tail === undefined && missing !== 0) || (tail !== undefined && missing < 1)) return undefined;
  let value = 0n;
  for (const group of [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right]) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined;
    value = (value << 16n) | BigInt(Number.parseInt(group, 16));
  }
  return value;
}

function parseAddress(text: string): { bits: 32 | 128; value: bigint } | undefined {
  const address = normalize(text);
  const v4 = parseIPv4(address);
  if (v4 !== undefined) return { bits: 32, value: v4 };
  const v6 = parseIPv6(address);
  return v6 === undefined ? undefined : { bits: 128, value: v6 };
}

function parseNetwork(text: string): Network | undefined {
  const [address = "", prefixText] = text.split("/");
  const parsed = parseAddress(address);
  if (!parsed) return undefined;
  const prefix = prefixText === undefined ? parsed.bits : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > parsed.bits) return undefined;
  const shift = BigInt(parsed.bits - prefix);
  return { bits: parsed.bits, base: (parsed.value >> shift) << shift, prefix };
}

/** TRUSTED_PROXIES: comma-separated IPs or CIDRs; a bad entry stops the server with its name. */
export function parseTrustedProxies(raw: string | undefined): string[] {
  if (!raw) return [];
  const entries = raw
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!parseNetwork(entry))
      throw new Error(`TRUSTED_PROXIES has "${entry}", which is neither an IP address nor a CIDR range.`);
  }
  return entries;
}

export function createAddressResolver(trustedProxies: readonly string[]) {
  const networks = trustedProxies.map((entry) => parseNetwork(entry)).filter((n) => n !== undefined);
  const isTrusted = (address: string) => {
    const parsed = parseAddress(address);
    if (!parsed) return false;
    return networks.some((network) => {
      if (network.bits !== parsed.bits) return false;
      const shift = BigInt(network.bits - network.prefix);
      return (parsed.value >> shift) << shift === network.base;
    });
  };
  return (request: Request): string => {
    const peer = peerOf(request);
    if (networks.length === 0 || !isTrusted(peer)) return peer;
    const hops = (request.headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((hop) => normalize(hop))
      .filter(Boolean);
    for (let index = hops.length - 1; index >= 0; index--) {
      const hop = hops[index] as string;
      if (!isTrusted(hop)) return parseAddress(hop) ? hop : peer;
    }
    return hops[0] ?? peer;
  };
}

export type AddressResolver = ReturnType<typeof createAddressResolver>;

/**
 * An address cut to its network, for what is kept after IP_RETENTION_DAYS (DESIGN §16):
 * IPv4 to its /24 (`203.0.113.0/24`), IPv6 to its /48 (`2001:db8:1::/48`), as much as
 * says where a customer connected from without saying which machine. Undefined for text
 * that is no address. A network already cut is returned as it is.
 */
export function networkOf(text: string): string | undefined {
  const [address = "", prefix] = text.split("/");
  const parsed = parseAddress(address);
  if (!parsed) return undefined;
  const bits = parsed.bits === 32 ? 24 : 48;
  if (prefix !== undefined && Number(prefix) <= bits) return text;
  const shift = BigInt(parsed.bits - bits);
  const network = (parsed.value >> shift) << shift;
  if (parsed.bits === 32)
    return `${[24n, 16n, 8n, 0n].map((offset) => (network >> offset) & 255n).join(".")}/24`;
  const groups = [112n, 96n, 80n].map((offset) => ((network >> offset) & 0xffffn).toString(16));
  return `${groups.join(":")}::/48`;
}
