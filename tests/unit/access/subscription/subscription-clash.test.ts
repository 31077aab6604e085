import { describe, expect, test } from "vitest";
import { clashConfig } from "../../../../bff/modules/access/subscription/clash-config";
import { yamlDocument } from "../../../../bff/modules/access/subscription/yaml-text";
import { credential, entry, inbounds } from "../../../helpers/subscription-inbounds";

type ClashDocument = {
  "mixed-port": number;
  mode: string;
  proxies: Record<string, unknown>[];
  "proxy-groups": { name: string; type: string; proxies: string[] }[];
  rules: string[];
};

/** The YAML as Mihomo would read it, parsed by Bun's own YAML parser (not the product's writer). */
const parse = (text: string) => Bun.YAML.parse(text) as ClashDocument;

/** Proxies in the shape of Mihomo's documentation (proxies/vless, vmess, tls, transport). */
describe("Mihomo (Clash) proxies", () => {
  test("REALITY with Vision, TLS over WebSocket, TLS over gRPC, plain TCP and VMess", () => {
    const document = parse(
      clashConfig(credential, [
        entry("Kannt · A", "nl.example.com", inbounds.realityVision),
        entry("Kannt · B", "de.example.com", inbounds.tlsWs),
        entry("Kannt · C", "g.example.com", inbounds.tlsGrpc),
        entry("Kannt · D", "2001:db8::7", inbounds.plainTcp),
        entry("Kannt · E", "lv.example.com", inbounds.vmessWs),
      ]),
    );
    expect(document.proxies).toEqual([
      {
        name: "Kannt · A",
        type: "vless",
        server: "nl.example.com",
        port: 443,
        uuid: credential,
        udp: true,
        flow: "xtls-rprx-vision",
        "packet-encoding": "xudp",
        network: "tcp",
        tls: true,
        servername: "www.microsoft.com",
        "client-fingerprint": "chrome",
        "reality-opts": { "public-key": inbounds.realityVision.publicKey, "short-id": "6ba85179e30d4fc2" },
      },
      {
        name: "Kannt · B",
        type: "vless",
        server: "de.example.com",
        port: 8443,
        uuid: credential,
        udp: true,
        "packet-encoding": "xudp",
        network: "ws",
        "ws-opts": { path: "/ws?ed=2048", headers: { Host: "cdn.example.com" } },
        tls: true,
        servername: "cdn.example.com",
        alpn: ["h2", "http/1.1"],
        "client-fingerprint": "firefox",
      },
      {
        name: "Kannt · C",
        type: "vless",
        server: "g.example.com",
        port: 2083,
        uuid: credential,
        udp: true,
        "packet-encoding": "xudp",
        network: "grpc",
        "grpc-opts": { "grpc-service-name": "kannt.grpc" },
        tls: true,
        servername: "grpc.example.com",
        alpn: ["h2"],
      },
      {
        name: "Kannt · D",
        type: "vless",
        server: "2001:db8::7",
        port: 10086,
        uuid: credential,
        udp: true,
        "packet-encoding": "xudp",
        network: "tcp",
      },
      {
        name: "Kannt · E",
        type: "vmess",
        server: "lv.example.com",
        port: 443,
        uuid: credential,
        udp: true,
        alterId: 0,
        cipher: "auto",
        network: "ws",
        "ws-opts": { path: "/vm", headers: { Host: "vm.example.com" } },
        tls: true,
        servername: "vm.example.com",
        alpn: ["http/1.1"],
        "client-fingerprint": "chrome",
      },
    ]);
  });

  test("HTTPUpgrade as ws with v2ray-http-upgrade; XHTTP with xhttp-opts", () => {
    const document = parse(
      clashConfig(credential, [
        entry("u", "u.example.com", inbounds.httpUpgrade),
        entry("x", "x.example.com", inbounds.xhttp),
      ]),
    );
    expect(document.proxies[0]).toMatchObject({
      network: "ws",
      "ws-opts": { path: "/up", headers: { Host: "up.example.com" }, "v2ray-http-upgrade": true },
    });
    expect(document.proxies[1]).toMatchObject({ network: "xhttp", "xhttp-opts": { path: "/x" } });
  });

  test("one select group over every proxy, and every connection but the direct ones through it", () => {
    const document = parse(
      clashConfig(credential, [
        entry("Kannt · A", "a.example.com", inbounds.plainTcp),
        entry("Kannt · B", "b.example.com", inbounds.plainTcp),
      ]),
    );
    expect(document["proxy-groups"]).toEqual([
      { name: "Kannt", type: "select", proxies: ["Kannt · A", "Kannt · B"] },
    ]);
    // The split tunnelling comes first (subscription-direct-routes.test.ts holds the whole list).
    expect(document.rules).toContain("DOMAIN-SUFFIX,ru,DIRECT");
    expect(document.rules).toContain("GEOIP,RU,DIRECT");
    expect(document.rules).toContain("IP-CIDR,192.168.0.0/16,DIRECT,no-resolve");
    expect(document.rules).toContain("IP-CIDR6,fc00::/7,DIRECT,no-resolve");
    expect(document.rules.at(-1)).toBe("MATCH,Kannt");
    expect(document.mode).toBe("rule");
  });

  test("names and values YAML would misread stay plain strings", () => {
    const names = [
      'Kannt · "Yes": #1',
      "- no",
      "yes",
      "null",
      "0x1F",
      "a\nb",
      "Подписка закончилась — продлите",
    ];
    const document = parse(
      clashConfig(
        credential,
        names.map((name) => entry(name, "a.example.com", inbounds.plainTcp)),
      ),
    );
    expect(document.proxies.map((proxy) => proxy.name)).toEqual(names);
    expect(document["proxy-groups"][0]?.proxies).toEqual(names);
  });

  test("the writer's empty lists and mappings read back as empty", () => {
    expect(Bun.YAML.parse(yamlDocument({ a: [], b: {}, c: [{}], d: [[1, "x"]] }))).toEqual({
      a: [],
      b: {},
      c: [{}],
      d: [[1, "x"]],
    });
  });
});
