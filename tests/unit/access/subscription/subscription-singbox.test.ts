import { describe, expect, test } from "vitest";
import {
  isSingBoxSupported,
  singBoxConfig,
  singBoxOutbound,
} from "../../../../bff/modules/access/subscription/singbox-config";
import { credential, entry, inbounds } from "../../../helpers/subscription-inbounds";

/** Outbounds in the shape of sing-box's documentation (outbound/vless, vmess, shared/tls, v2ray-transport). */
describe("sing-box outbounds", () => {
  test("REALITY with Vision: flow, server_name, uTLS fingerprint and reality's public_key and short_id", () => {
    expect(singBoxOutbound(credential, entry("Kannt · A", "nl.example.com", inbounds.realityVision))).toEqual(
      {
        type: "vless",
        tag: "Kannt · A",
        server: "nl.example.com",
        server_port: 443,
        uuid: credential,
        flow: "xtls-rprx-vision",
        tls: {
          enabled: true,
          server_name: "www.microsoft.com",
          utls: { enabled: true, fingerprint: "chrome" },
          reality: {
            enabled: true,
            public_key: inbounds.realityVision.publicKey,
            short_id: "6ba85179e30d4fc2",
          },
        },
      },
    );
  });

  test("TLS over WebSocket: alpn, uTLS, and the ws transport's path and Host header", () => {
    expect(singBoxOutbound(credential, entry("Kannt · B", "de.example.com", inbounds.tlsWs))).toEqual({
      type: "vless",
      tag: "Kannt · B",
      server: "de.example.com",
      server_port: 8443,
      uuid: credential,
      tls: {
        enabled: true,
        server_name: "cdn.example.com",
        alpn: ["h2", "http/1.1"],
        utls: { enabled: true, fingerprint: "firefox" },
      },
      transport: { type: "ws", path: "/ws?ed=2048", headers: { Host: "cdn.example.com" } },
    });
  });

  test("TLS over gRPC: service_name; plain TCP: no tls and no transport; HTTPUpgrade: host", () => {
    expect(singBoxOutbound(credential, entry("g", "g.example.com", inbounds.tlsGrpc))).toMatchObject({
      tls: { enabled: true, server_name: "grpc.example.com", alpn: ["h2"] },
      transport: { type: "grpc", service_name: "kannt.grpc" },
    });
    expect(singBoxOutbound(credential, entry("p", "2001:db8::7", inbounds.plainTcp))).toEqual({
      type: "vless",
      tag: "p",
      server: "2001:db8::7",
      server_port: 10086,
      uuid: credential,
    });
    expect(singBoxOutbound(credential, entry("u", "u.example.com", inbounds.httpUpgrade)).transport).toEqual({
      type: "httpupgrade",
      path: "/up",
      host: "up.example.com",
    });
  });

  test("VMess: security auto, alter_id 0", () => {
    expect(singBoxOutbound(credential, entry("v", "v.example.com", inbounds.vmessWs))).toMatchObject({
      type: "vmess",
      security: "auto",
      alter_id: 0,
      transport: { type: "ws", path: "/vm", headers: { Host: "vm.example.com" } },
    });
  });

  test("XHTTP is left out: sing-box has no such transport", () => {
    expect(isSingBoxSupported(inbounds.xhttp)).toBe(false);
    expect(isSingBoxSupported(inbounds.realityVision)).toBe(true);
  });
});

describe("the sing-box configuration", () => {
  test("a whole config: tun inbound, selector and urltest over the servers, direct, DNS through the tunnel", () => {
    const entries = [
      entry("Kannt · A", "a.example.com", inbounds.realityVision),
      entry("Kannt · B", "b.example.com", inbounds.tlsWs),
    ];
    const config = JSON.parse(singBoxConfig(credential, entries));
    expect(Object.keys(config).sort()).toEqual(["dns", "inbounds", "log", "outbounds", "route"]);
    expect(config.inbounds).toEqual([
      {
        type: "tun",
        tag: "tun-in",
        address: ["172.19.0.1/30", "fdfe:dcba:9876::1/126"],
        auto_route: true,
        strict_route: true,
      },
    ]);
    expect(
      config.outbounds.map((outbound: { type: string; tag: string }) => [outbound.type, outbound.tag]),
    ).toEqual([
      ["selector", "Kannt"],
      ["urltest", "Auto"],
      ["vless", "Kannt · A"],
      ["vless", "Kannt · B"],
      ["direct", "direct"],
    ]);
    expect(config.outbounds[0]).toEqual({
      type: "selector",
      tag: "Kannt",
      outbounds: ["Auto", "Kannt · A", "Kannt · B"],
      default: "Auto",
    });
    expect(config.outbounds[1]).toEqual({
      type: "urltest",
      tag: "Auto",
      outbounds: ["Kannt · A", "Kannt · B"],
    });
    expect(config.dns).toEqual({
      servers: [
        { type: "tls", tag: "remote", server: "1.1.1.1", detour: "Kannt" },
        { type: "local", tag: "local" },
      ],
      rules: [{ rule_set: ["direct-sites"], server: "local" }],
      final: "remote",
    });
    expect(config.route).toMatchObject({
      rules: [
        { action: "sniff" },
        { protocol: "dns", action: "hijack-dns" },
        { rule_set: ["direct-sites", "direct-networks"], outbound: "direct" },
      ],
      final: "Kannt",
      auto_detect_interface: true,
      default_domain_resolver: "local",
    });
    expect(config.route.rule_set.map((set: { type: string; tag: string }) => [set.type, set.tag])).toEqual([
      ["inline", "direct-sites"],
      ["inline", "direct-networks"],
    ]);
    // Every outbound tag is unique: sing-box refuses a config where two are not.
    const tags = config.outbounds.map((outbound: { tag: string }) => outbound.tag);
    expect(new Set(tags).size).toBe(tags.length);
  });
});
