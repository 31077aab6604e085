import type { InboundReport } from "../../../../agent/contract/node-api";
import { company } from "../../../../core/company";
import { directDomains, directRoutes, isIpv6Network } from "./routing/direct-routes";
import { dialedHost, type ServerEntry } from "./server-entries";
import { flowOf } from "./share-links";
import { type YamlValue, yamlDocument } from "./yaml-text";

/**
 * A Mihomo (Clash Meta) configuration for clash, mihomo, FlClash, Clash Verge and Stash:
 * the proxies with the fields of Mihomo's documentation (proxies/vless, vmess, tls,
 * transport), one select group over them, and every connection through that group but
 * the split tunnelling's (routing/direct-routes.ts), which goes DIRECT.
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
    server: dialedHost(entry.host),
    port: inbound.port,
    uuid,
    udp: true,
    ...protocolFields,
    ...transportFields(inbound),
    ...securityFields(inbound),
  };
}

/**
 * Mihomo's rules, first match wins: direct domain suffixes, then local networks and the
 * countries' addresses (GEOIP, Mihomo's own database; `no-resolve` on the ranges so a
 * name is not looked up just to test it), then everything else through the group.
 */
export function clashRules(): string[] {
  return [
    ...directDomains.map((domain) => `DOMAIN-SUFFIX,${domain},DIRECT`),
    ...directRoutes.privateNetworks.map(
      (network) => `${isIpv6Network(network) ? "IP-CIDR6" : "IP-CIDR"},${network},DIRECT,no-resolve`,
    ),
    ...directRoutes.countries.map((country) => `GEOIP,${country.toUpperCase()},DIRECT`),
    `MATCH,${groupName}`,
  ];
}

export function clashConfig(uuid: string, entries: readonly ServerEntry[]): string {
  return yamlDocument({
    "mixed-port": 7890,
    "allow-lan": false,
    mode: "rule",
    "log-level": "warning",
    proxies: entries.map((entry) => clashProxy(uuid, entry)),
    "proxy-groups": [{ name: groupName, type: "select", proxies: entries.map((entry) => entry.name) }],
    rules: clashRules(),
  });
}
