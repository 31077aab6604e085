import { describe, expect, test } from "vitest";
import { xrayClientConfig, xrayConfig } from "../../../../bff/modules/access/subscription/xray-config";
import { xrayProxyOutbound } from "../../../../bff/modules/access/subscription/xray-outbound";
import { credential, entry, inbounds } from "../../../helpers/subscription-inbounds";

/** Xray JSON (DESIGN §8): complete client configs in the fields of Xray's documentation. */
describe("Xray JSON proxy outbounds", () => {
  test("VLESS REALITY with Vision: vnext user with flow, realitySettings with key, short id, spiderX", () => {
    expect(xrayProxyOutbound(credential, entry("A", "nl.example.com", inbounds.realityVision))).toEqual({
      tag: "proxy",
      protocol: "vless",
      settings: {
        vnext: [
          {
            address: "nl.example.com",
            port: 443,
            users: [{ id: credential, encryption: "none", flow: "xtls-rprx-vision" }],
          },
        ],
      },
      streamSettings: {
        network: "tcp",
        security: "reality",
        realitySettings: {
          serverName: "www.microsoft.com",
          fingerprint: "chrome",
          publicKey: inbounds.realityVision.publicKey,
          shortId: "6ba85179e30d4fc2",
          spiderX: "/",
        },
      },
    });
  });

  test("TLS over WebSocket: tlsSettings with alpn and fingerprint, ws path and host, no flow", () => {
    expect(xrayProxyOutbound(credential, entry("B", "de.example.com", inbounds.tlsWs))).toMatchObject({
      settings: { vnext: [{ users: [{ id: credential, encryption: "none" }] }] },
      streamSettings: {
        network: "ws",
        security: "tls",
        tlsSettings: { serverName: "cdn.example.com", fingerprint: "firefox", alpn: ["h2", "http/1.1"] },
        wsSettings: { path: "/ws?ed=2048", host: "cdn.example.com", headers: { Host: "cdn.example.com" } },
      },
    });
  });

  test("gRPC, HTTPUpgrade, XHTTP and plain TCP transports; VMess with alterId 0", () => {
    const stream = (inbound: (typeof inbounds)[keyof typeof inbounds]) =>
      xrayProxyOutbound(credential, entry("x", "x.example.com", inbound)).streamSettings;
    expect(stream(inbounds.tlsGrpc)).toMatchObject({
      network: "grpc",
      grpcSettings: { serviceName: "kannt.grpc", multiMode: false },
    });
    expect(stream(inbounds.httpUpgrade)).toMatchObject({
      network: "httpupgrade",
      httpupgradeSettings: { path: "/up", host: "up.example.com" },
    });
    expect(stream(inbounds.xhttp)).toMatchObject({
      network: "xhttp",
      security: "reality",
      xhttpSettings: { path: "/x", mode: "auto" },
      realitySettings: { serverName: "www.apple.com", shortId: "ab" },
    });
    expect(stream(inbounds.plainTcp)).toEqual({ network: "tcp", security: "none" });
    expect(xrayProxyOutbound(credential, entry("v", "v.example.com", inbounds.vmessWs))).toMatchObject({
      protocol: "vmess",
      settings: { vnext: [{ users: [{ id: credential, alterId: 0, security: "auto" }] }] },
    });
  });
});

describe("the Xray JSON answer", () => {
  test("one complete config per entry, named by remarks, with local proxies, direct, block and DNS", () => {
    const configs = JSON.parse(
      xrayConfig(credential, [
        entry("Kannt · A", "a.example.com", inbounds.realityVision),
        entry("Kannt · B", "2001:db8::7", inbounds.tlsWs),
      ]),
    );
    expect(configs.map((config: { remarks: string }) => config.remarks)).toEqual(["Kannt · A", "Kannt · B"]);
    const [first, second] = configs;
    expect(Object.keys(first).sort()).toEqual(["dns", "inbounds", "log", "outbounds", "remarks", "routing"]);
    expect(
      first.inbounds.map((inbound: { protocol: string; listen: string; port: number }) => [
        inbound.protocol,
        inbound.listen,
        inbound.port,
      ]),
    ).toEqual([
      ["socks", "127.0.0.1", 10808],
      ["http", "127.0.0.1", 10809],
    ]);
    expect(first.outbounds.map((outbound: { tag: string; protocol: string }) => outbound.tag)).toEqual([
      "proxy",
      "direct",
      "block",
    ]);
    expect(first.outbounds.slice(1)).toEqual([
      { tag: "direct", protocol: "freedom", settings: {} },
      { tag: "block", protocol: "blackhole", settings: {} },
    ]);
    expect(first.dns.servers[0]).toBe("https://1.1.1.1/dns-query");
    // An IPv6 host goes in as it is: Xray's address field takes no brackets.
    expect(second.outbounds[0].settings.vnext[0].address).toBe("2001:db8::7");
  });

  test("a config reads the same built alone or in the answer", () => {
    const one = entry("Kannt · A", "a.example.com", inbounds.realityVision);
    expect(JSON.parse(xrayConfig(credential, [one]))).toEqual([xrayClientConfig(credential, one)]);
  });
});
