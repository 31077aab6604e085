import type { InboundReport } from "../../../../agent/contract/node-api";
import { dialedHost, type ServerEntry } from "./server-entries";
import { flowOf } from "./share-links";

/**
 * The proxy outbound of an Xray client config, in the fields of Xray's documentation
 * (outbounds/vless, vmess; transport: streamSettings, tlsSettings, realitySettings, ws,
 * httpupgrade, grpc, xhttp), read only from the entry's host and its inbound.
 */
type Json = Record<string, unknown>;

/** What the apps default to for REALITY, where the report names no fingerprint. */
const realityFingerprint = "chrome";

function transportSettings(inbound: InboundReport): Json {
  const { path, hostHeader } = inbound;
  switch (inbound.network) {
    case "ws":
      // `host` is Xray's field since 24.x; older cores (older v2rayNG) read the Host header.
      return {
        wsSettings: {
          path: path ?? "/",
          ...(hostHeader ? { host: hostHeader, headers: { Host: hostHeader } } : {}),
        },
      };
    case "httpupgrade":
      return { httpupgradeSettings: { path: path ?? "/", ...(hostHeader ? { host: hostHeader } : {}) } };
    case "grpc":
      return { grpcSettings: { serviceName: inbound.serviceName ?? "", multiMode: false } };
    case "xhttp":
      // The report carries no XHTTP mode: the inbound runs Xray's default, which `auto` picks.
      return {
        xhttpSettings: { path: path ?? "/", mode: "auto", ...(hostHeader ? { host: hostHeader } : {}) },
      };
    case "tcp":
      return {};
  }
}

function securitySettings(inbound: InboundReport): Json {
  if (inbound.security === "none") return {};
  if (inbound.security === "tls") {
    const tls: Json = {};
    if (inbound.sni) tls.serverName = inbound.sni;
    if (inbound.fingerprint) tls.fingerprint = inbound.fingerprint;
    if (inbound.alpn) tls.alpn = inbound.alpn;
    return { tlsSettings: tls };
  }
  const reality: Json = {
    serverName: inbound.sni ?? "",
    fingerprint: inbound.fingerprint ?? realityFingerprint,
    publicKey: inbound.publicKey ?? "",
    shortId: inbound.shortId ?? "",
  };
  if (inbound.spiderX) reality.spiderX = inbound.spiderX;
  return { realitySettings: reality };
}

export const proxyTag = "proxy";

export function xrayProxyOutbound(uuid: string, entry: ServerEntry): Json {
  const { inbound } = entry;
  const flow = flowOf(inbound);
  const user: Json =
    inbound.protocol === "vmess"
      ? { id: uuid, alterId: 0, security: "auto" }
      : { id: uuid, encryption: "none", ...(flow ? { flow } : {}) };
  return {
    tag: proxyTag,
    protocol: inbound.protocol,
    settings: { vnext: [{ address: dialedHost(entry.host), port: inbound.port, users: [user] }] },
    streamSettings: {
      // "tcp" rather than Xray 24.9's alias "raw": older cores know only "tcp".
      network: inbound.network,
      security: inbound.security,
      ...securitySettings(inbound),
      ...transportSettings(inbound),
    },
  };
}
