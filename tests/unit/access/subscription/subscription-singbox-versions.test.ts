import { describe, expect, test } from "vitest";
import { singBoxConfig } from "../../../../bff/modules/access/subscription/singbox-config";
import { credential, entry, inbounds } from "../../../helpers/subscription-inbounds";

/**
 * sing-box 1.11 and newer (sing-box.sagernet.org "Deprecated Feature List", "Migration"):
 * the config an app gets holds no field its version has removed or deprecated, and none
 * newer than its version.
 */

/** Removed in 1.11 (deprecated in 1.10): TUN's split address fields, the old match-source name. */
const removedIn111 = [
  "inet4_address",
  "inet6_address",
  "inet4_route_address",
  "inet6_route_address",
  "inet4_route_exclude_address",
  "inet6_route_exclude_address",
  "rule_set_ipcidr_match_source",
];
/** Deprecated in 1.11, removed in 1.13: legacy inbound fields, destination override, TUN's GSO. */
const deprecatedIn111 = [
  "sniff",
  "sniff_override_destination",
  "sniff_timeout",
  "domain_strategy",
  "udp_disable_domain_unmapping",
  "override_address",
  "override_port",
  "gso",
];
/** Removed in 1.12 (deprecated in 1.8): the GeoIP and Geosite databases and their rule items. */
const removedIn112 = ["geoip", "geosite", "source_geoip"];
/** Deprecated in 1.12: ECH's stray fields (removed in 1.13), the legacy DNS server's resolver fields (1.14). */
const deprecatedIn112 = [
  "address_resolver",
  "address_strategy",
  "pq_signature_schemes_enabled",
  "dynamic_record_sizing_disabled",
];
/** A DNS server in the legacy format (deprecated in 1.12, removed in 1.14) is one with `address`. */
const legacyDnsServerField = "address";
/** Since 1.12 only: 1.11 refuses them as unknown. */
const since112 = ["default_domain_resolver", "domain_resolver"];

/** Every key anywhere in a JSON value. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [key, ...keysOf(child)]);
}

const entries = [
  entry("Kannt · A", "a.example.com", inbounds.realityVision),
  entry("Kannt · B", "b.example.com", inbounds.tlsWs),
  entry("Kannt · C", "c.example.com", inbounds.vmessWs),
];

type Config = {
  dns: { servers: Record<string, unknown>[]; rules: Record<string, unknown>[] };
  outbounds: { type: string }[];
};
const configFor = (version: string | undefined) =>
  JSON.parse(singBoxConfig(credential, entries, version)) as Config;

describe("the sing-box config by the app's sing-box version", () => {
  test("sing-box 1.11: legacy DNS servers, nothing removed or deprecated by 1.11, nothing newer", () => {
    const config = configFor("1.11.0");
    const keys = keysOf(config);
    for (const field of [...removedIn111, ...deprecatedIn111, ...removedIn112, ...since112])
      expect(keys, field).not.toContain(field);
    expect(config.dns.servers).toEqual([
      { tag: "remote", address: "tls://1.1.1.1", detour: "Kannt" },
      { tag: "local", address: "local" },
    ]);
    for (const server of config.dns.servers) expect(server).not.toHaveProperty("type");
    // 1.11 looks up the servers' own names by the outbound DNS rule.
    expect(config.dns.rules[0]).toEqual({ outbound: "any", server: "local" });
  });

  test("sing-box 1.12 and 1.13, and an app that names no version: typed DNS servers, nothing deprecated", () => {
    for (const version of ["1.12.3", "1.13.0", undefined]) {
      const config = configFor(version);
      const keys = keysOf(config);
      for (const field of [...removedIn111, ...deprecatedIn111, ...removedIn112, ...deprecatedIn112])
        expect(keys, `${field} for ${version}`).not.toContain(field);
      expect(config.dns.servers.map((server) => server.type)).toEqual(["tls", "local"]);
      for (const server of config.dns.servers) expect(server).not.toHaveProperty(legacyDnsServerField);
      // The outbound DNS rule item is deprecated in 1.12: default_domain_resolver does its work.
      expect(config.dns.rules.some((rule) => "outbound" in rule)).toBe(false);
      expect(keys).toContain("default_domain_resolver");
    }
  });

  test("no version gets the legacy special outbounds (block, dns, removed in 1.13)", () => {
    for (const version of ["1.11.0", "1.12.0", undefined])
      expect(configFor(version).outbounds.some((outbound) => ["block", "dns"].includes(outbound.type))).toBe(
        false,
      );
  });
});
