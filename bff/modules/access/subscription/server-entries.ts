import { domainToASCII } from "node:url";
import type { InboundNetwork, InboundReport, InboundSecurity } from "../../../../agent/contract/node-api";

/** One server a client app gets: a node's inbound, under the name the app shows. */
export type ServerEntry = { name: string; host: string; inbound: InboundReport };

/** The UUID of a note entry: it names no credential. */
export const noteCredential = "00000000-0000-0000-0000-000000000000";

const networks: readonly InboundNetwork[] = ["tcp", "ws", "grpc", "xhttp", "httpupgrade"];
const securities: readonly InboundSecurity[] = ["none", "tls", "reality"];
const optionalTexts = [
  "flow",
  "path",
  "hostHeader",
  "serviceName",
  "sni",
  "fingerprint",
  "publicKey",
  "shortId",
  "spiderX",
] as const;

const isText = (value: unknown): value is string => typeof value === "string" && value.length <= 1024;

/**
 * An inbound as a node reported it, or undefined when it is not one a client could use:
 * the report is the node's word, so a bad entry is dropped rather than breaking every
 * customer's subscription (a REALITY inbound without its public key cannot connect).
 */
function inboundOf(value: unknown): InboundReport | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const item = value as Record<string, unknown>;
  const { protocol, port, network, security } = item;
  if (protocol !== "vless" && protocol !== "vmess") return undefined;
  if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  if (!networks.includes(network as InboundNetwork)) return undefined;
  if (!securities.includes(security as InboundSecurity)) return undefined;
  const inbound: InboundReport = {
    tag: isText(item.tag) ? item.tag : "",
    protocol,
    port,
    network: network as InboundNetwork,
    security: security as InboundSecurity,
  };
  for (const key of optionalTexts) {
    const text = item[key];
    if (isText(text) && text !== "") inbound[key] = text;
  }
  if (Array.isArray(item.alpn)) {
    const alpn = item.alpn.filter((entry): entry is string => isText(entry) && entry !== "");
    if (alpn.length > 0) inbound.alpn = alpn;
  }
  // The REALITY server's oldest client version decides which apps may get the entry.
  if (typeof item.minClientVer === "string" && /^[0-9]+(\.[0-9]+){0,2}$/.test(item.minClientVer))
    inbound.minClientVer = item.minClientVer;
  if (inbound.security === "reality" && !inbound.publicKey) return undefined;
  return inbound;
}

export function parseInbounds(text: string): InboundReport[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.map(inboundOf).filter((inbound): inbound is InboundReport => inbound !== undefined);
}

/**
 * The address as client apps dial it: a domain in its ASCII (punycode) form, or an IP
 * address; IPv6 without brackets (each format adds its own). Undefined when it is neither.
 */
export function normalizeHost(host: string | null): string | undefined {
  const trimmed = host?.trim().replace(/^\[(.*)\]$/, "$1") ?? "";
  if (trimmed === "") return undefined;
  if (trimmed.includes(":")) return /^[0-9A-Fa-f:.]+$/.test(trimmed) ? trimmed.toLowerCase() : undefined;
  const ascii = domainToASCII(trimmed);
  return /^[A-Za-z0-9.-]+$/.test(ascii) ? ascii : undefined;
}

export const isIpv6 = (host: string) => host.includes(":");

/**
 * An entry's address as the apps dial it: a domain in ASCII (v2rayNG's URI parser refuses
 * a Unicode host), an IPv6 address bare. Entries built elsewhere may hold either form.
 */
export const dialedHost = (host: string) => normalizeHost(host) ?? host;

/** `host` as it goes in a URL's authority: an IPv6 address in brackets (RFC 3986). */
export const hostInUrl = (host: string) => (isIpv6(host) ? `[${host}]` : host);

/**
 * A harmless entry whose name is a message the app shows in its server list (access
 * ended, no servers yet): the panels' practice, since a subscription has no other field
 * every app displays. It points at 0.0.0.0:1, where nothing answers.
 */
export function noteEntry(message: string): ServerEntry {
  return {
    name: message,
    host: "0.0.0.0",
    inbound: { tag: "note", protocol: "vless", port: 1, network: "tcp", security: "none" },
  };
}
