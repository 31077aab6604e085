import { directDomains, directRoutes } from "./routing/direct-routes";
import type { ServerEntry } from "./server-entries";
import { xrayProxyOutbound } from "./xray-outbound";

/**
 * Xray JSON, the fourth format (DESIGN §8): a JSON array of complete Xray client configs,
 * one per server entry, each named by `remarks` (the entry's name). v2rayNG (pull request
 * #2827), v2rayN, Happ, Streisand and V2Box import such an array as one config per server
 * (the shape Marzban's and Remnawave's "v2ray-json" answers have). Each holds the local
 * SOCKS and HTTP proxies the desktop apps point the system at (10808/10809, as v2rayN's and
 * v2rayNG's own templates), the proxy, `direct` and `block`, DNS, and the split tunnelling.
 */
type Json = Record<string, unknown>;

const sniffing = { enabled: true, destOverride: ["http", "tls", "quic"], routeOnly: true };

const inbounds: Json[] = [
  {
    tag: "socks",
    listen: "127.0.0.1",
    port: 10808,
    protocol: "socks",
    settings: { auth: "noauth", udp: true },
    sniffing,
  },
  { tag: "http", listen: "127.0.0.1", port: 10809, protocol: "http", settings: {}, sniffing },
];

const directDomainList = directDomains.map((domain) => `domain:${domain}`);

/** Direct names are looked up by a resolver in the customers' region; the rest through the tunnel. */
const dns = {
  servers: [
    "https://1.1.1.1/dns-query",
    { address: "77.88.8.8", domains: directDomainList, skipFallback: true },
  ],
  queryStrategy: "UseIP",
};

/** The split tunnelling of routing/direct-routes.ts, in Xray's routing rules. */
export const xrayRouting = {
  domainStrategy: "IPIfNonMatch",
  rules: [
    { type: "field", domain: directDomainList, outboundTag: "direct" },
    {
      type: "field",
      ip: ["geoip:private", ...directRoutes.countries.map((country) => `geoip:${country}`)],
      outboundTag: "direct",
    },
  ],
};

export function xrayClientConfig(uuid: string, entry: ServerEntry): Json {
  return {
    remarks: entry.name,
    log: { loglevel: "warning" },
    dns,
    inbounds,
    outbounds: [
      xrayProxyOutbound(uuid, entry),
      { tag: "direct", protocol: "freedom", settings: {} },
      { tag: "block", protocol: "blackhole", settings: {} },
    ],
    routing: xrayRouting,
  };
}

/** The whole answer as JSON text. */
export function xrayConfig(uuid: string, entries: readonly ServerEntry[]): string {
  return JSON.stringify(
    entries.map((entry) => xrayClientConfig(uuid, entry)),
    null,
    2,
  );
}
