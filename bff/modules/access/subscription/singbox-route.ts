import { compareVersions } from "./client-version";
import { directDomains, directRoutes } from "./routing/direct-routes";

/**
 * The DNS and route sections of the sing-box config, valid from sing-box 1.11 on
 * (sing-box.sagernet.org "Deprecated Feature List" and "Migration"):
 * - no legacy inbound fields (sniff, domain_strategy …, removed in 1.13): sniffing and DNS
 *   are route rule actions (`sniff`, `hijack-dns`, 1.11+);
 * - no legacy special outbounds (`block`, `dns`, removed in 1.13);
 * - no GeoIP/Geosite databases (removed in 1.12): split tunnelling is two inline rule sets
 *   (1.10+) of domain suffixes and address ranges;
 * - DNS servers: the typed format ({type, server}) arrived in 1.12, and the legacy one
 *   ({address}) is deprecated there and removed in 1.14, so no one form serves 1.11 and
 *   1.14. The answer follows the app's sing-box version from its User-Agent (SFA/SFI/SFM
 *   name it): before 1.12 the legacy form (with the `outbound` DNS rule 1.11 needs to look
 *   up the servers' own names), from 1.12 or when the agent names no version (Hiddify,
 *   karing: assumed current) the typed one with `default_domain_resolver`.
 */
type Json = Record<string, unknown>;

export const directSitesTag = "direct-sites";
export const directNetworksTag = "direct-networks";

export const isLegacyDns = (coreVersion: string | undefined) =>
  coreVersion !== undefined && compareVersions(coreVersion, "1.12.0") < 0;

export function singBoxDns(selectorTag: string, coreVersion: string | undefined): Json {
  // Direct sites are looked up on the customer's own network; everything else through the tunnel.
  const directLookups = { rule_set: [directSitesTag], server: "local" };
  if (isLegacyDns(coreVersion))
    return {
      servers: [
        { tag: "remote", address: "tls://1.1.1.1", detour: selectorTag },
        { tag: "local", address: "local" },
      ],
      rules: [{ outbound: "any", server: "local" }, directLookups],
      final: "remote",
    };
  return {
    servers: [
      { type: "tls", tag: "remote", server: "1.1.1.1", detour: selectorTag },
      { type: "local", tag: "local" },
    ],
    rules: [directLookups],
    final: "remote",
  };
}

export function singBoxRoute(selectorTag: string, coreVersion: string | undefined): Json {
  return {
    rule_set: [
      { type: "inline", tag: directSitesTag, rules: [{ domain_suffix: directDomains }] },
      { type: "inline", tag: directNetworksTag, rules: [{ ip_cidr: directRoutes.privateNetworks }] },
    ],
    rules: [
      { action: "sniff" },
      { protocol: "dns", action: "hijack-dns" },
      { rule_set: [directSitesTag, directNetworksTag], outbound: "direct" },
    ],
    final: selectorTag,
    auto_detect_interface: true,
    // The servers' own names are looked up outside the tunnel, which needs them first.
    ...(isLegacyDns(coreVersion) ? {} : { default_domain_resolver: "local" }),
  };
}
