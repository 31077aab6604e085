import type { InboundReport } from "../../../../agent/contract/node-api";
import { company } from "../../../../core/company";
import type { ServerEntry } from "./server-entries";
import { flowOf } from "./share-links";
import { type YamlValue, yamlDocument } from "./yaml-text";

/**
 * A Mihomo (Clash Meta) configuration for clash, mihomo, FlClash, Clash Verge and Stash:
 * the proxies with the fields of Mihomo's documentation (proxies/vless, vmess, tls,
 * transport), one select group over them, and every connection through that group.
 */

export const groupName = company.productName;

type Proxy = { [key: string]: YamlValue | undefined };

function securityFields(inbound: InboundReport): Proxy {
  if (inbound.security === "none") return {};
  const fields: Proxy = { tls: true, servername: inbound.sni };
  if (inbound.security === "tls") {
    return { ...fields, alpn: inbound.alpn, "client-fingerprint": inbound.fingerprint };
  }
  return {
    ...fields,
    "client-fingerprint": inbound.fingerprint ?? "chrome",
    "reality-opts": { "public-key": inbound.publicKey ?? "", "short-id": inbound.shortId ?? "" },
  };
}

function transportFields(inbound: InboundReport): Proxy {
  const headers = inbound.hostHeader ? { Host: inbound.hostHeader } : undefined;
  switch (inbound.network) {
    case "ws":
      return { network: "ws", "ws-opts": { path: inbound.path ?? "/", headers } };
    case "httpupgrade":
      // Mihomo speaks HTTPUpgrade as a variant of its WebSocket transport.
      return {
        network: "ws",
        "ws-opts": { path: inbound.path ?? "/", headers, "v2ray-http-upgrade": true },
      };
    case "grpc":
      return { network: "grpc", "grpc-opts": { "grpc-service-name": inbound.serviceName ?? "" } };
    case "xhttp":
      return { network: "xhttp", "xhttp-opts": { path: inbound.path ?? "/", host: inbound.hostHeader } };
    case "tcp":
      return { network: "tcp" };
  }
}

export function clashProxy(uuid: string, entry: ServerEntry): Proxy {
  const { inbound } = entry;
  const protocolFields: Proxy =
    inbound.protocol === "vmess"
      ? { alterId: 0, cipher: "auto" }
      : { flow: flowOf(inbound), "packet-encoding": "xudp" };
  return {
    name: entry.name,
    type: inbound.protocol,
    server: entry.host,
    port: inbound.port,
    uuid,
    udp: true,
    ...protocolFields,
    ...transportFields(inbound),
    ...securityFields(inbound),
  };
}

export function clashConfig(uuid: string, entries: readonly ServerEntry[]): string {
  return yamlDocument({
    "mixed-port": 7890,
    "allow-lan": false,
    mode: "rule",
    "log-level": "warning",
    proxies: entries.map((entry) => clashProxy(uuid, entry)),
    "proxy-groups": [{ name: groupName, type: "select", proxies: entries.map((entry) => entry.name) }],
    rules: [`MATCH,${groupName}`],
  });
}
