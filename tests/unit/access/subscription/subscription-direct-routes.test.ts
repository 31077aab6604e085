import { describe, expect, test } from "vitest";
import { clashConfig } from "../../../../bff/modules/access/subscription/clash-config";
import { profileHeaders } from "../../../../bff/modules/access/subscription/profile-headers";
import {
  directDomains,
  directRoutes,
} from "../../../../bff/modules/access/subscription/routing/direct-routes";
import { singBoxConfig } from "../../../../bff/modules/access/subscription/singbox-config";
import { xrayConfig } from "../../../../bff/modules/access/subscription/xray-config";
import { credential, entry, inbounds } from "../../../helpers/subscription-inbounds";

/** DESIGN §8: one split-tunnelling list, written into every format. */
const entries = [entry("Kannt · A", "a.example.com", inbounds.realityVision)];

const headersOf = (format: "base64" | "xray" | "singbox" | "clash") =>
  profileHeaders({
    format,
    title: "Kannt",
    upload: 0,
    download: 0,
    expireSeconds: 0,
    cabinetUrl: "https://kannt.example/profile",
  });

/** Happ's routing profile, out of its `happ://routing/onadd/{base64}` header. */
function happProfile(header: string | undefined) {
  const prefix = "happ://routing/onadd/";
  expect(header?.startsWith(prefix)).toBe(true);
  return JSON.parse(Buffer.from(header?.slice(prefix.length) ?? "", "base64").toString("utf8")) as {
    Name: string;
    GlobalProxy: string;
    DirectSites: string[];
    DirectIp: string[];
  };
}

describe("split tunnelling: Russian and Kazakh sites and networks go direct in every format", () => {
  test("the list holds the countries' domains, their services elsewhere, and local networks", () => {
    expect(directDomains).toEqual(expect.arrayContaining(["ru", "su", "xn--p1ai", "kz", "xn--80ao21a"]));
    expect(directDomains).toEqual(expect.arrayContaining(["yandex.com", "vk.com", "userapi.com"]));
    expect(directRoutes.countries).toEqual(["ru", "kz"]);
    expect(directRoutes.privateNetworks).toEqual(expect.arrayContaining(["10.0.0.0/8", "192.168.0.0/16"]));
  });

  test("share links and Xray JSON: Happ's routing header, every domain and network of the list", () => {
    for (const format of ["base64", "xray"] as const) {
      const profile = happProfile(headersOf(format).routing);
      expect(profile.Name).toBe("Kannt");
      expect(profile.GlobalProxy).toBe("true");
      expect(profile.DirectSites).toEqual(directDomains.map((domain) => `domain:${domain}`));
      expect(profile.DirectIp).toEqual(["geoip:ru", "geoip:kz", ...directRoutes.privateNetworks]);
    }
    // Happ reads neither sing-box JSON nor Clash YAML: those carry the list themselves.
    expect(headersOf("singbox").routing).toBeUndefined();
    expect(headersOf("clash").routing).toBeUndefined();
  });

  test("Mihomo: a DIRECT rule per domain suffix, local network and country, before the final MATCH", () => {
    const { rules } = Bun.YAML.parse(clashConfig(credential, entries)) as { rules: string[] };
    expect(rules).toEqual([
      ...directDomains.map((domain) => `DOMAIN-SUFFIX,${domain},DIRECT`),
      ...directRoutes.privateNetworks.map(
        (network) => `${network.includes(":") ? "IP-CIDR6" : "IP-CIDR"},${network},DIRECT,no-resolve`,
      ),
      "GEOIP,RU,DIRECT",
      "GEOIP,KZ,DIRECT",
      "MATCH,Kannt",
    ]);
  });

  test("sing-box: inline rule sets of the domains and networks, routed to direct", () => {
    for (const version of [undefined, "1.11.0", "1.13.0"]) {
      const { route } = JSON.parse(singBoxConfig(credential, entries, version));
      expect(route.rule_set).toEqual([
        { type: "inline", tag: "direct-sites", rules: [{ domain_suffix: directDomains }] },
        { type: "inline", tag: "direct-networks", rules: [{ ip_cidr: directRoutes.privateNetworks }] },
      ]);
      expect(route.rules).toContainEqual({
        rule_set: ["direct-sites", "direct-networks"],
        outbound: "direct",
      });
    }
  });

  test("Xray JSON: routing rules of the domains, geoip:private and the countries, to direct", () => {
    const [config] = JSON.parse(xrayConfig(credential, entries));
    expect(config.routing.rules).toEqual([
      { type: "field", domain: directDomains.map((domain) => `domain:${domain}`), outboundTag: "direct" },
      { type: "field", ip: ["geoip:private", "geoip:ru", "geoip:kz"], outboundTag: "direct" },
    ]);
  });
});
