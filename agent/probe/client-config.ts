import type { InboundReport } from "../contract/node-api.ts";
import type { ProbeEntry } from "../contract/probe-api.ts";
import type { CoreKind } from "../core-messages.ts";

/**
 * The probe's core as a client app (DESIGN §8): one SOCKS5 inbound on loopback per entry,
 * routed by its tag to one outbound that dials the entry as a customer's app would, with
 * the entry's address, port, transport, SNI, fingerprint and ALPN, and the probe's own
 * credential. Xray's JSON, or V2Ray 4's for Debian's v2ray; an entry the core cannot dial
 * as published is left out of the config and reported failed with the reason.
 */
export type ClientConfig = {
  config: Record<string, unknown>;
  /** Entries the core cannot dial as published, by entry id: why. */
  unsupported: Map<number, string>;
};

export const inboundTagOf = (entryId: number) => `probe-in-${entryId}`;
const outboundTagOf = (entryId: number) => `probe-out-${entryId}`;

/** Why V2Ray 4 cannot dial an entry as a client app would, or undefined when it can. */
function v2rayGap(inbound: InboundReport): string | undefined {
  if (inbound.security === "reality") return "REALITY needs CORE=xray (V2Ray 4 has no REALITY)";
  if (inbound.network !== "tcp" && inbound.network !== "ws")
    return `the ${inbound.network} transport needs CORE=xray (V2Ray 4 has tcp and ws)`;
  if (inbound.flow) return `flow ${inbound.flow} needs CORE=xray (V2Ray 4 has no XTLS)`;
  if (inbound.security === "tls" && inbound.fingerprint)
    return `TLS fingerprint ${inbound.fingerprint} needs CORE=xray (V2Ray 4 has no uTLS)`;
  return undefined;
}

function xrayGap(inbound: InboundReport): string | undefined {
  if (inbound.security === "reality" && !inbound.publicKey)
    return "the REALITY entry has no publicKey: the node's report did not carry one";
  return undefined;
}

/** Unset fields stay out of the JSON: the cores read an empty string as a value. */
function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).filter(
      ([, value]) => value !== undefined && value !== "" && !(Array.isArray(value) && value.length === 0),
    ),
  );
}

function userOf(core: CoreKind, inbound: InboundReport, credential: string) {
  if (inbound.protocol === "vless")
    return defined({ id: credential, encryption: "none", flow: inbound.flow });
  // Xray dropped alterId; V2Ray 4 needs 0 for AEAD, as the node's VMess inbound expects.
  return core === "xray"
    ? { id: credential, security: "auto" }
    : { id: credential, alterId: 0, security: "auto" };
}

function transportOf(core: CoreKind, inbound: InboundReport): Record<string, unknown> {
  const { network, path, hostHeader } = inbound;
  if (network === "tcp") return { network };
  if (network === "grpc") return { network, grpcSettings: defined({ serviceName: inbound.serviceName }) };
  if (network === "ws" && core === "v2ray")
    return { network, wsSettings: defined({ path, headers: hostHeader ? { Host: hostHeader } : undefined }) };
  const settingsName = network === "ws" ? "wsSettings" : `${network}Settings`;
  return { network, [settingsName]: defined({ path, host: hostHeader }) };
}

function securityOf(core: CoreKind, inbound: InboundReport): Record<string, unknown> {
  if (inbound.security === "tls")
    return {
      security: "tls",
      tlsSettings: defined({
        serverName: inbound.sni,
        alpn: inbound.alpn,
        fingerprint: core === "xray" ? inbound.fingerprint : undefined,
      }),
    };
  if (inbound.security === "reality")
    return {
      security: "reality",
      realitySettings: defined({
        serverName: inbound.sni,
        // Xray's REALITY client must name a fingerprint; chrome is what the node reports by default.
        fingerprint: inbound.fingerprint || "chrome",
        publicKey: inbound.publicKey,
        shortId: inbound.shortId,
        spiderX: inbound.spiderX,
      }),
    };
  return { security: "none" };
}

function outboundOf(core: CoreKind, entry: ProbeEntry, credential: string) {
  const { inbound } = entry;
  return {
    tag: outboundTagOf(entry.id),
    protocol: inbound.protocol,
    settings: {
      vnext: [{ address: entry.address, port: inbound.port, users: [userOf(core, inbound, credential)] }],
    },
    streamSettings: { ...transportOf(core, inbound), ...securityOf(core, inbound) },
  };
}

/** The client config for `entries`; `portOf` gives each entry's local SOCKS port. */
export function clientConfig(
  core: CoreKind,
  credential: string,
  entries: ProbeEntry[],
  portOf: (entryId: number) => number,
): ClientConfig {
  const unsupported = new Map<number, string>();
  const dialed: ProbeEntry[] = [];
  for (const entry of entries) {
    const gap = core === "v2ray" ? v2rayGap(entry.inbound) : xrayGap(entry.inbound);
    if (gap) unsupported.set(entry.id, gap);
    else dialed.push(entry);
  }
  const config = {
    log: { loglevel: "warning" },
    inbounds: dialed.map((entry) => ({
      tag: inboundTagOf(entry.id),
      listen: "127.0.0.1",
      port: portOf(entry.id),
      protocol: "socks",
      settings: { auth: "noauth", udp: false },
    })),
    // The first outbound takes what no rule names: nothing should, and nothing leaves unprobed.
    outbounds: [
      { tag: "unrouted", protocol: "blackhole" },
      ...dialed.map((entry) => outboundOf(core, entry, credential)),
    ],
    routing: {
      rules: dialed.map((entry) => ({
        type: "field",
        inboundTag: [inboundTagOf(entry.id)],
        outboundTag: outboundTagOf(entry.id),
      })),
    },
  };
  return { config, unsupported };
}
