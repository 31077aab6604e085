import { describe, expect, test } from "vitest";
import type { InboundReport } from "../../../../agent/contract/node-api";
import { clashConfig } from "../../../../bff/modules/access/subscription/clash-config";
import { normalizeHost, type ServerEntry } from "../../../../bff/modules/access/subscription/server-entries";
import { shareLink } from "../../../../bff/modules/access/subscription/share-links";
import { singBoxConfig } from "../../../../bff/modules/access/subscription/singbox-config";
import { xrayConfig } from "../../../../bff/modules/access/subscription/xray-config";
import { credential } from "../../../helpers/subscription-inbounds";

/**
 * DESIGN §8: every share link passes parsers modelled on the clients' own, written here
 * after reading them (not copied):
 * - v2rayNG: the URI split by hand (userinfo@host:port), the query split on "&" and then
 *   on the first "=" only, each value URL-decoded once, the fragment decoded as the name;
 *   vmess:// as base64 of v2rayN's JSON;
 * - Mihomo's handleVShareLink: `type` is the network ("" is tcp; headerType=http turns tcp
 *   into HTTP obfuscation, and anything but "none" on tcp builds http-opts), `security`,
 *   `sni`, `fp`, `pbk`, `sid`, `flow`, `alpn` as a comma list, `path`/`host`/`serviceName`
 *   by network;
 * - sing-box/Hiddify's transport switch: tcp or raw, ws, grpc, httpupgrade, xhttp or
 *   splithttp; tcp with headerType=http is the HTTP transport.
 */

type Query = Map<string, string>;

/** v2rayNG's reading of a vless:// link. */
function v2rayNgVless(link: string) {
  expect(link.startsWith("vless://")).toBe(true);
  const rest = link.slice("vless://".length);
  const hashAt = rest.indexOf("#");
  const beforeName = hashAt === -1 ? rest : rest.slice(0, hashAt);
  const name = hashAt === -1 ? "" : decodeURIComponent(rest.slice(hashAt + 1));
  const queryAt = beforeName.indexOf("?");
  const authority = beforeName.slice(0, queryAt);
  const rawQuery = beforeName.slice(queryAt + 1);
  const [userinfo, hostPort] = authority.split("@") as [string, string];
  const portAt = hostPort.lastIndexOf(":");
  const bracketed = hostPort.slice(0, portAt);
  const host = bracketed.startsWith("[") ? bracketed.slice(1, -1) : bracketed;
  const query: Query = new Map();
  for (const pair of rawQuery.split("&")) {
    const equalsAt = pair.indexOf("=");
    expect(equalsAt, `"${pair}" has a value`).toBeGreaterThan(0);
    query.set(pair.slice(0, equalsAt), decodeURIComponent(pair.slice(equalsAt + 1)));
  }
  return {
    id: decodeURIComponent(userinfo),
    host,
    port: Number(hostPort.slice(portAt + 1)),
    query,
    name,
    rawQuery,
  };
}

/** v2rayNG's (and v2rayN's) reading of a vmess:// link. */
function v2rayNgVmess(link: string): Record<string, string> {
  expect(link.startsWith("vmess://")).toBe(true);
  const payload = JSON.parse(Buffer.from(link.slice("vmess://".length), "base64").toString("utf8"));
  for (const key of [
    "v",
    "ps",
    "add",
    "port",
    "id",
    "aid",
    "scy",
    "net",
    "type",
    "host",
    "path",
    "tls",
    "sni",
  ])
    expect(typeof payload[key], `vmess ${key}`).toBe("string");
  return payload;
}

/** Mihomo's reading of the query (network and the options it builds per network). */
function mihomoProxy(query: Query) {
  const network = (query.get("type") ?? "") || "tcp";
  const headerType = (query.get("headerType") ?? "").toLowerCase();
  const proxy: Record<string, unknown> = {
    network: headerType === "http" ? "http" : network,
    security: query.get("security"),
    servername: query.get("sni"),
    fingerprint: query.get("fp"),
    publicKey: query.get("pbk"),
    shortId: query.get("sid"),
    flow: query.get("flow"),
    alpn: query.get("alpn")?.split(","),
  };
  if (network === "tcp" && headerType !== "none") proxy["http-opts"] = { path: [query.get("path") ?? "/"] };
  if (network === "ws" || network === "httpupgrade" || network === "xhttp")
    proxy.transport = { path: query.get("path"), host: query.get("host") };
  if (network === "grpc") proxy.transport = { serviceName: query.get("serviceName") };
  return proxy;
}

/** sing-box/Hiddify's transport switch on `type`. */
function singBoxTransport(query: Query): string {
  const type = query.get("type") ?? "tcp";
  switch (type) {
    case "tcp":
    case "raw":
      return query.get("headerType") === "http" ? "http" : "tcp";
    case "ws":
    case "grpc":
    case "httpupgrade":
      return type;
    case "xhttp":
    case "splithttp":
      return "xhttp";
    default:
      throw new Error(`sing-box/Hiddify know no transport "${type}"`);
  }
}

const networks = ["tcp", "ws", "grpc", "xhttp", "httpupgrade"] as const;
const securities = ["none", "tls", "reality"] as const;
const hosts = ["203.0.113.7", "2001:db8::1", "пример.рф"];
const names = ["Kannt · Amsterdam", "two words", "#1 & co", "Москва", "🇳🇱 NL 2", "50% off? a=b+c"];
const paths = ["/ws?ed=2048", "/a&b=c", "/100%", "/x y"];

function inboundOf(
  protocol: "vless" | "vmess",
  network: (typeof networks)[number],
  security: (typeof securities)[number],
  variant: number,
): InboundReport {
  const inbound: InboundReport = { tag: "kannt", protocol, port: 443 + variant, network, security };
  // A flow set on every VLESS inbound: the link must carry it only where Vision runs.
  if (protocol === "vless") inbound.flow = "xtls-rprx-vision";
  if (network === "ws" || network === "httpupgrade" || network === "xhttp") {
    inbound.path = paths[variant % paths.length];
    inbound.hostHeader = "cdn.example.com";
  }
  if (network === "grpc") inbound.serviceName = "kannt.grpc";
  if (security === "tls") {
    inbound.sni = "tls.example.com";
    inbound.alpn = ["h2", "http/1.1"];
    if (variant % 2 === 0) inbound.fingerprint = "firefox";
  }
  if (security === "reality") {
    inbound.sni = "www.microsoft.com";
    inbound.publicKey = "Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw";
    inbound.shortId = "6ba85179e30d4fc2";
    if (variant % 2 === 1) inbound.spiderX = "/a b?c";
  }
  return inbound;
}

const cases: ServerEntry[] = [];
let variant = 0;
for (const protocol of ["vless", "vmess"] as const)
  for (const network of networks)
    for (const security of securities)
      for (const host of hosts) {
        cases.push({
          // Names shift against hosts, so each name meets each kind of host.
          name: names[(variant + Math.floor(variant / hosts.length)) % names.length] ?? "",
          host,
          inbound: inboundOf(protocol, network, security, variant),
        });
        variant++;
      }

const label = (entry: ServerEntry) =>
  `${entry.inbound.protocol} ${entry.inbound.network}/${entry.inbound.security} @ ${entry.host} "${entry.name}"`;

const expectedFlow = (inbound: InboundReport) =>
  inbound.protocol === "vless" && inbound.network === "tcp" && inbound.security !== "none"
    ? inbound.flow
    : undefined;

describe("share links as the clients' own parsers read them", () => {
  test.each(
    cases.filter((entry) => entry.inbound.protocol === "vless").map((entry) => [label(entry), entry]),
  )("%s", (_, entry) => {
    const { inbound } = entry;
    const link = shareLink(credential, entry);
    const parsed = v2rayNgVless(link);
    // Round trip: what the app reads is the entry.
    expect(parsed.id).toBe(credential);
    expect(parsed.host).toBe(normalizeHost(entry.host));
    expect(parsed.port).toBe(inbound.port);
    expect(parsed.name).toBe(entry.name);
    const { query } = parsed;
    expect(query.get("type")).toBe(inbound.network);
    expect(query.get("security")).toBe(inbound.security);
    expect(query.get("encryption")).toBe("none");
    expect(query.get("flow")).toBe(expectedFlow(inbound));
    expect(query.get("path")).toBe(
      inbound.network === "grpc" || inbound.network === "tcp" ? undefined : inbound.path,
    );
    expect(query.get("host")).toBe(inbound.hostHeader);
    expect(query.get("serviceName")).toBe(inbound.serviceName);
    expect(query.get("sni")).toBe(inbound.sni);
    if (inbound.security === "reality") {
      expect(query.get("pbk")).toBe(inbound.publicKey);
      expect(query.get("sid")).toBe(inbound.shortId);
      expect(query.get("fp")).toBe(inbound.fingerprint ?? "chrome");
      expect(query.get("spx")).toBe(inbound.spiderX);
    } else {
      for (const key of ["pbk", "sid", "spx"]) expect(query.has(key), key).toBe(false);
      expect(query.get("fp")).toBe(inbound.security === "tls" ? inbound.fingerprint : undefined);
    }
    // Raw TCP says so, and says it carries no HTTP header obfuscation.
    if (inbound.network === "tcp") expect(query.get("headerType")).toBe("none");

    // No empty parameter, and every value and the name percent-encoded.
    for (const pair of parsed.rawQuery.split("&"))
      expect(pair).toMatch(/^[A-Za-z]+=[A-Za-z0-9\-_.!~*'()%]+$/);
    expect(link.slice(link.indexOf("#") + 1)).toMatch(/^[A-Za-z0-9\-_.!~*'()%]*$/);

    const mihomo = mihomoProxy(query);
    expect(mihomo.network).toBe(inbound.network);
    expect(mihomo).not.toHaveProperty("http-opts");
    expect(mihomo.flow).toBe(expectedFlow(inbound));
    if (inbound.security === "tls") expect(mihomo.alpn).toEqual(inbound.alpn);
    if (inbound.network === "grpc") expect(mihomo.transport).toEqual({ serviceName: inbound.serviceName });
    if (inbound.network === "ws")
      expect(mihomo.transport).toEqual({ path: inbound.path, host: inbound.hostHeader });

    expect(singBoxTransport(query)).toBe(inbound.network);
  });

  test.each(
    cases.filter((entry) => entry.inbound.protocol === "vmess").map((entry) => [label(entry), entry]),
  )("%s", (_, entry) => {
    const { inbound } = entry;
    const payload = v2rayNgVmess(shareLink(credential, entry));
    expect(payload).toMatchObject({
      v: "2",
      ps: entry.name,
      add: normalizeHost(entry.host),
      port: String(inbound.port),
      id: credential,
      aid: "0",
      net: inbound.network,
      tls: inbound.security === "none" ? "" : inbound.security,
      sni: inbound.sni ?? "",
      host: inbound.hostHeader ?? "",
      path: (inbound.network === "grpc" ? inbound.serviceName : inbound.path) ?? "",
    });
    // VMess has no flow; raw TCP's header type is "none", never HTTP.
    expect(payload).not.toHaveProperty("flow");
    if (inbound.network === "tcp") expect(payload.type).toBe("none");
    if (inbound.security === "reality")
      expect(payload).toMatchObject({ pbk: inbound.publicKey, sid: inbound.shortId, fp: "chrome" });
    expect(singBoxTransport(new Map([["type", payload.net ?? ""]]))).toBe(inbound.network);
  });
});

describe("the address every format dials", () => {
  test("a Unicode domain goes out in ASCII, an IPv6 address bare, in the JSON and YAML formats too", () => {
    for (const [host, dialed] of [
      ["пример.рф", "xn--e1afmkfd.xn--p1ai"],
      ["[2001:DB8::1]", "2001:db8::1"],
    ] as const) {
      const entries = [{ name: "A", host, inbound: inboundOf("vless", "tcp", "reality", 0) }];
      const clash = Bun.YAML.parse(clashConfig(credential, entries)) as { proxies: { server: string }[] };
      expect(clash.proxies[0]?.server).toBe(dialed);
      expect(JSON.parse(singBoxConfig(credential, entries)).outbounds[2].server).toBe(dialed);
      expect(JSON.parse(xrayConfig(credential, entries))[0].outbounds[0].settings.vnext[0].address).toBe(
        dialed,
      );
    }
  });
});
