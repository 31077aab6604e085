import type { InboundReport } from "../../agent/contract/node-api";
import type { ServerEntry } from "../../bff/modules/access/subscription/server-entries";

/** A device credential as the links carry it. */
export const credential = "5783a3e7-e373-51cd-8642-c83782b807c5";

/** The inbounds a node agent reports, one of each kind the subscription formats must carry. */
export const inbounds = {
  realityVision: {
    tag: "kannt-reality",
    protocol: "vless",
    port: 443,
    network: "tcp",
    security: "reality",
    flow: "xtls-rprx-vision",
    sni: "www.microsoft.com",
    fingerprint: "chrome",
    publicKey: "Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw",
    shortId: "6ba85179e30d4fc2",
    spiderX: "/",
  },
  tlsWs: {
    tag: "kannt-ws",
    protocol: "vless",
    port: 8443,
    network: "ws",
    security: "tls",
    path: "/ws?ed=2048",
    hostHeader: "cdn.example.com",
    sni: "cdn.example.com",
    fingerprint: "firefox",
    alpn: ["h2", "http/1.1"],
  },
  tlsGrpc: {
    tag: "kannt-grpc",
    protocol: "vless",
    port: 2083,
    network: "grpc",
    security: "tls",
    serviceName: "kannt.grpc",
    sni: "grpc.example.com",
    alpn: ["h2"],
  },
  plainTcp: { tag: "kannt-plain", protocol: "vless", port: 10086, network: "tcp", security: "none" },
  vmessWs: {
    tag: "kannt-vmess",
    protocol: "vmess",
    port: 443,
    network: "ws",
    security: "tls",
    path: "/vm",
    hostHeader: "vm.example.com",
    sni: "vm.example.com",
    fingerprint: "chrome",
    alpn: ["http/1.1"],
  },
  httpUpgrade: {
    tag: "kannt-hu",
    protocol: "vless",
    port: 443,
    network: "httpupgrade",
    security: "tls",
    path: "/up",
    hostHeader: "up.example.com",
    sni: "up.example.com",
  },
  xhttp: {
    tag: "kannt-xhttp",
    protocol: "vless",
    port: 443,
    network: "xhttp",
    security: "reality",
    path: "/x",
    sni: "www.apple.com",
    publicKey: "Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw",
    shortId: "ab",
  },
} satisfies Record<string, InboundReport>;

export const entry = (name: string, host: string, inbound: InboundReport): ServerEntry => ({
  name,
  host,
  inbound,
});
