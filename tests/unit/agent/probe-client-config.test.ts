import { describe, expect, test } from "vitest";
import type { InboundReport } from "../../../agent/contract/node-api";
import type { ProbeEntry } from "../../../agent/contract/probe-api";
import { clientConfig } from "../../../agent/probe/client-config";
import { coreCommand } from "../../../agent/probe/core-client";

const credential = "6f1c7c4e-3f7e-4b8a-9a51-2f6f4f0d9c11";

const entry = (id: number, address: string, inbound: Partial<InboundReport>): ProbeEntry => ({
  id,
  name: `entry ${id}`,
  address,
  inbound: {
    tag: `in-${id}`,
    protocol: "vless",
    port: 443,
    network: "tcp",
    security: "none",
    ...inbound,
  },
});

const reality = entry(1, "nl1.example", {
  security: "reality",
  flow: "xtls-rprx-vision",
  sni: "www.microsoft.com",
  fingerprint: "firefox",
  publicKey: "Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw",
  shortId: "6ba85179e30d4fc2",
  spiderX: "/",
});
const vmessWs = entry(2, "cdn.example", {
  protocol: "vmess",
  port: 8443,
  network: "ws",
  security: "tls",
  path: "/kannt",
  hostHeader: "ws.example",
  sni: "ws.example",
  alpn: ["http/1.1"],
});
const grpc = entry(3, "203.0.113.7", {
  network: "grpc",
  serviceName: "kannt-grpc",
  security: "tls",
  sni: "grpc.example",
  fingerprint: "chrome",
});
const plainTcp = entry(4, "127.0.0.1", { port: 10001 });
const httpUpgrade = entry(5, "hu.example", { network: "httpupgrade", path: "/up", hostHeader: "hu.example" });
const xhttp = entry(6, "xh.example", { network: "xhttp", path: "/xh", security: "tls", sni: "xh.example" });

const ports = new Map([
  [1, 20001],
  [2, 20002],
  [3, 20003],
  [4, 20004],
  [5, 20005],
  [6, 20006],
]);
const portOf = (id: number) => ports.get(id) ?? 0;

type Json = Record<string, unknown>;
const outboundOf = (config: Json, id: number) =>
  (config.outbounds as Json[]).find((outbound) => outbound.tag === `probe-out-${id}`);

describe("the probe's client config", () => {
  test("one SOCKS inbound on loopback per entry, routed by its tag to the entry's outbound; nothing else leaves", () => {
    const { config, unsupported } = clientConfig("xray", credential, [reality, plainTcp], portOf);
    expect(unsupported.size).toBe(0);
    expect(config.inbounds).toEqual([
      {
        tag: "probe-in-1",
        listen: "127.0.0.1",
        port: 20001,
        protocol: "socks",
        settings: { auth: "noauth", udp: false },
      },
      {
        tag: "probe-in-4",
        listen: "127.0.0.1",
        port: 20004,
        protocol: "socks",
        settings: { auth: "noauth", udp: false },
      },
    ]);
    expect((config.outbounds as Json[])[0]).toEqual({ tag: "unrouted", protocol: "blackhole" });
    expect(config.routing).toEqual({
      rules: [
        { type: "field", inboundTag: ["probe-in-1"], outboundTag: "probe-out-1" },
        { type: "field", inboundTag: ["probe-in-4"], outboundTag: "probe-out-4" },
      ],
    });
  });

  test("Xray: REALITY with vision, the entry's SNI, fingerprint, key and short id, and the probe's credential", () => {
    const { config } = clientConfig("xray", credential, [reality], portOf);
    expect(outboundOf(config, 1)).toEqual({
      tag: "probe-out-1",
      protocol: "vless",
      settings: {
        vnext: [
          {
            address: "nl1.example",
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
          fingerprint: "firefox",
          publicKey: "Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw",
          shortId: "6ba85179e30d4fc2",
          spiderX: "/",
        },
      },
    });
  });

  test("Xray: VMess over ws+TLS, gRPC with uTLS, httpupgrade and xhttp, each with its own settings", () => {
    const { config, unsupported } = clientConfig(
      "xray",
      credential,
      [vmessWs, grpc, httpUpgrade, xhttp],
      portOf,
    );
    expect(unsupported.size).toBe(0);
    expect(outboundOf(config, 2)).toMatchObject({
      protocol: "vmess",
      settings: {
        vnext: [{ address: "cdn.example", port: 8443, users: [{ id: credential, security: "auto" }] }],
      },
      streamSettings: {
        network: "ws",
        wsSettings: { path: "/kannt", host: "ws.example" },
        security: "tls",
        tlsSettings: { serverName: "ws.example", alpn: ["http/1.1"] },
      },
    });
    expect(outboundOf(config, 3)?.streamSettings).toEqual({
      network: "grpc",
      grpcSettings: { serviceName: "kannt-grpc" },
      security: "tls",
      tlsSettings: { serverName: "grpc.example", fingerprint: "chrome" },
    });
    expect(outboundOf(config, 5)?.streamSettings).toEqual({
      network: "httpupgrade",
      httpupgradeSettings: { path: "/up", host: "hu.example" },
      security: "none",
    });
    expect(outboundOf(config, 6)?.streamSettings).toEqual({
      network: "xhttp",
      xhttpSettings: { path: "/xh" },
      security: "tls",
      tlsSettings: { serverName: "xh.example" },
    });
  });

  test("Xray: a REALITY entry without a public key is reported, not dialed", () => {
    const { publicKey: _, ...withoutKey } = reality.inbound;
    const { config, unsupported } = clientConfig(
      "xray",
      credential,
      [{ ...reality, inbound: withoutKey }],
      portOf,
    );
    expect(unsupported.get(1)).toMatch(/no publicKey/);
    expect(config.inbounds).toEqual([]);
  });

  test("V2Ray 4: its own JSON (alterId 0, ws Host header, no uTLS) for what it can dial", () => {
    const { publicKey: _, fingerprint: __, ...tlsWithoutFingerprint } = { ...vmessWs.inbound };
    const { config, unsupported } = clientConfig(
      "v2ray",
      credential,
      [{ ...vmessWs, inbound: tlsWithoutFingerprint }, plainTcp],
      portOf,
    );
    expect(unsupported.size).toBe(0);
    expect(outboundOf(config, 2)).toEqual({
      tag: "probe-out-2",
      protocol: "vmess",
      settings: {
        vnext: [
          {
            address: "cdn.example",
            port: 8443,
            users: [{ id: credential, alterId: 0, security: "auto" }],
          },
        ],
      },
      streamSettings: {
        network: "ws",
        wsSettings: { path: "/kannt", headers: { Host: "ws.example" } },
        security: "tls",
        tlsSettings: { serverName: "ws.example", alpn: ["http/1.1"] },
      },
    });
    expect(outboundOf(config, 4)).toEqual({
      tag: "probe-out-4",
      protocol: "vless",
      settings: {
        vnext: [{ address: "127.0.0.1", port: 10001, users: [{ id: credential, encryption: "none" }] }],
      },
      streamSettings: { network: "tcp", security: "none" },
    });
  });

  test("V2Ray 4: entries it cannot dial as published are named with the reason, not dropped or dialed otherwise", () => {
    const withFingerprint = entry(7, "tls.example", {
      security: "tls",
      sni: "tls.example",
      fingerprint: "chrome",
    });
    const { config, unsupported } = clientConfig(
      "v2ray",
      credential,
      [reality, grpc, httpUpgrade, xhttp, withFingerprint, plainTcp],
      portOf,
    );
    expect(Object.fromEntries(unsupported)).toEqual({
      1: "REALITY needs CORE=xray (V2Ray 4 has no REALITY)",
      3: "the grpc transport needs CORE=xray (V2Ray 4 has tcp and ws)",
      5: "the httpupgrade transport needs CORE=xray (V2Ray 4 has tcp and ws)",
      6: "the xhttp transport needs CORE=xray (V2Ray 4 has tcp and ws)",
      7: "TLS fingerprint chrome needs CORE=xray (V2Ray 4 has no uTLS)",
    });
    expect((config.inbounds as Json[]).map((inbound) => inbound.tag)).toEqual(["probe-in-4"]);
    const flowOnly = entry(8, "v.example", { flow: "xtls-rprx-vision", security: "tls" });
    expect(clientConfig("v2ray", credential, [flowOnly], portOf).unsupported.get(8)).toBe(
      "flow xtls-rprx-vision needs CORE=xray (V2Ray 4 has no XTLS)",
    );
  });

  test("each core is started as its command line wants", () => {
    expect(coreCommand("v2ray", "/usr/bin/v2ray", "/tmp/c.json")).toEqual([
      "/usr/bin/v2ray",
      "-config",
      "/tmp/c.json",
    ]);
    expect(coreCommand("xray", "/usr/local/bin/xray", "/tmp/c.json")).toEqual([
      "/usr/local/bin/xray",
      "run",
      "-c",
      "/tmp/c.json",
    ]);
  });
});
