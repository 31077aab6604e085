import type { InboundReport } from "../../../../agent/contract/node-api";
import { company } from "../../../../core/company";
import { dialedHost, type ServerEntry } from "./server-entries";
import { flowOf } from "./share-links";
import { singBoxDns, singBoxRoute } from "./singbox-route";

/**
 * A complete sing-box configuration (the sing-box apps, Hiddify and karing import it whole),
 * valid on sing-box 1.11 and newer (singbox-route.ts says which fields and why), with only
 * the fields the documentation lists.
 */

/** The selector the apps show; traffic goes through it. */
export const selectorTag = company.productName;
export const urlTestTag = "Auto";

/** sing-box has no XHTTP transport: such inbounds are left out of this format. */
export const isSingBoxSupported = (inbound: InboundReport) => inbound.network !== "xhttp";

type Json = Record<string, unknown>;

function tlsOf(inbound: InboundReport): Json | undefined {
  if (inbound.security === "none") return undefined;
  const tls: Json = { enabled: true };
  if (inbound.sni) tls.server_name = inbound.sni;
  if (inbound.security === "tls") {
    if (inbound.alpn) tls.alpn = inbound.alpn;
    if (inbound.fingerprint) tls.utls = { enabled: true, fingerprint: inbound.fingerprint };
    return tls;
  }
  // REALITY needs uTLS in sing-box.
  tls.utls = { enabled: true, fingerprint: inbound.fingerprint ?? "chrome" };
  tls.reality = { enabled: true, public_key: inbound.publicKey, short_id: inbound.shortId ?? "" };
  return tls;
}

function transportOf(inbound: InboundReport): Json | undefined {
  switch (inbound.network) {
    case "ws":
      return {
        type: "ws",
        path: inbound.path ?? "/",
        ...(inbound.hostHeader ? { headers: { Host: inbound.hostHeader } } : {}),
      };
    case "httpupgrade":
      return {
        type: "httpupgrade",
        path: inbound.path ?? "/",
        ...(inbound.hostHeader ? { host: inbound.hostHeader } : {}),
      };
    case "grpc":
      return { type: "grpc", service_name: inbound.serviceName ?? "" };
    default:
      return undefined;
  }
}

export function singBoxOutbound(uuid: string, entry: ServerEntry): Json {
  const { inbound } = entry;
  const outbound: Json = {
    type: inbound.protocol,
    tag: entry.name,
    server: dialedHost(entry.host),
    server_port: inbound.port,
    uuid,
  };
  if (inbound.protocol === "vmess") {
    outbound.security = "auto";
    outbound.alter_id = 0;
  }
  const flow = flowOf(inbound);
  if (flow) outbound.flow = flow;
  const tls = tlsOf(inbound);
  if (tls) outbound.tls = tls;
  const transport = transportOf(inbound);
  if (transport) outbound.transport = transport;
  return outbound;
}

/**
 * The whole configuration as JSON text; `entries` must be ones `isSingBoxSupported` keeps.
 * `coreVersion`: the app's sing-box version, where its agent names it.
 */
export function singBoxConfig(uuid: string, entries: readonly ServerEntry[], coreVersion?: string): string {
  const tags = entries.map((entry) => entry.name);
  const config = {
    log: { level: "warn" },
    dns: singBoxDns(selectorTag, coreVersion),
    inbounds: [
      {
        type: "tun",
        tag: "tun-in",
        // `address` since 1.10; inet4_address/inet6_address were removed in 1.11.
        address: ["172.19.0.1/30", "fdfe:dcba:9876::1/126"],
        auto_route: true,
        strict_route: true,
      },
    ],
    outbounds: [
      { type: "selector", tag: selectorTag, outbounds: [urlTestTag, ...tags], default: urlTestTag },
      { type: "urltest", tag: urlTestTag, outbounds: tags },
      ...entries.map((entry) => singBoxOutbound(uuid, entry)),
      { type: "direct", tag: "direct" },
    ],
    route: singBoxRoute(selectorTag, coreVersion),
  };
  return JSON.stringify(config, null, 2);
}
