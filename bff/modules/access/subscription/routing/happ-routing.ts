import { company } from "../../../../../core/company";
import { base64Of } from "../share-links";
import { directDomains, directRoutes } from "./direct-routes";

/**
 * Split tunnelling for Happ, as its documentation describes it (happ.su dev-docs "Routing",
 * github.com/HappDev/happ_su dev-docs/routing.md): a routing profile in JSON, every value
 * a string, sent in the `routing` response header as `happ://routing/onadd/{base64 of the
 * profile}`, which adds the profile and makes it the active one ("onadd"; "add" would wait
 * for the user). A profile of the same Name is replaced, so each fetch brings the list up to
 * date. Sites are Xray routing entries (`domain:`, `geoip:`), read against the geo files
 * the profile names (Happ's defaults, Loyalsoldier's, which have `ru`, `kz`).
 */
const geoFiles = "https://github.com/Loyalsoldier/v2ray-rules-dat/releases/latest/download";

export function happRoutingProfile(): Record<string, unknown> {
  return {
    Name: company.productName,
    // Everything not listed goes through the tunnel.
    GlobalProxy: "true",
    RemoteDNSType: "DoH",
    RemoteDNSDomain: "https://cloudflare-dns.com/dns-query",
    RemoteDNSIP: "1.1.1.1",
    // Direct sites are looked up on the customer's own network, as a local resolver answers them.
    DomesticDNSType: "DoU",
    DomesticDNSDomain: "",
    DomesticDNSIP: "77.88.8.8",
    Geoipurl: `${geoFiles}/geoip.dat`,
    Geositeurl: `${geoFiles}/geosite.dat`,
    DnsHosts: { "cloudflare-dns.com": "1.1.1.1" },
    DirectSites: directDomains.map((domain) => `domain:${domain}`),
    DirectIp: [
      ...directRoutes.countries.map((country) => `geoip:${country}`),
      ...directRoutes.privateNetworks,
    ],
    ProxySites: [],
    ProxyIp: [],
    BlockSites: [],
    BlockIp: [],
    DomainStrategy: "IPIfNonMatch",
    FakeDNS: "false",
  };
}

/** The `routing` header's value. */
export const happRoutingHeader = () =>
  `happ://routing/onadd/${base64Of(JSON.stringify(happRoutingProfile()))}`;
