import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { CoreConfigError, managedInbounds } from "../../../agent/core-config";
import { versionFromOutput } from "../../../agent/core-version";
import { stripJsonComments } from "../../../agent/json-comments";
import { realityPublicKey } from "../../../agent/reality-key";

/** RFC 7748 §6.1, Alice's X25519 pair, in the unpadded base64url `xray x25519` prints. */
const privateKey = Buffer.from(
  "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
  "hex",
).toString("base64url");
const publicKey = Buffer.from(
  "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
  "hex",
).toString("base64url");

const example = () =>
  readFileSync(new URL("../../../deploy/xray-reality.example.json", import.meta.url), "utf8");

const configWith = (...inbounds: unknown[]) => JSON.stringify({ inbounds });

describe("REALITY public key", () => {
  test("is the X25519 public key of the private key, both base64url", () => {
    expect(privateKey).toBe("dwdtCnMYpX08FsFyUbJmRd9ML4frwJkqsXf7pR25LCo");
    expect(realityPublicKey(privateKey)).toBe(publicKey);
  });

  test("a key that is not 32 base64url bytes is refused with the way to make one", () => {
    expect(() => realityPublicKey("REPLACE_WITH_THE_PRIVATE_KEY_FROM_xray_x25519")).toThrow(/xray x25519/);
    expect(() => realityPublicKey(privateKey.slice(0, 20))).toThrow(/32-byte/);
  });
});

describe("managed inbounds of a core config", () => {
  test("the deploy example: VLESS + REALITY + Vision with the derived public key", () => {
    const text = example()
      .replace("REPLACE_WITH_THE_PRIVATE_KEY_FROM_xray_x25519", privateKey)
      .replace("REPLACE_WITH_HEX", "6ba85179e30d4fc2");
    expect(managedInbounds(text)).toEqual([
      {
        tag: "kannt-reality",
        protocol: "vless",
        port: 443,
        network: "tcp",
        security: "reality",
        flow: "xtls-rprx-vision",
        sni: "www.microsoft.com",
        shortId: "6ba85179e30d4fc2",
        fingerprint: "chrome",
        publicKey,
        minClientVer: "1.8.0",
      },
    ]);
  });

  test("the deploy example as shipped stops the agent on its placeholder key, saying how to make one", () => {
    expect(() => managedInbounds(example())).toThrow(CoreConfigError);
    expect(() => managedInbounds(example())).toThrow(
      /kannt-reality: realitySettings\.privateKey .*`xray x25519`/,
    );
  });

  test("the deploy example has the API, its routing rule, per-user stats and the access log", () => {
    const config = JSON.parse(stripJsonComments(example()));
    expect(config.api.services).toEqual(expect.arrayContaining(["HandlerService", "StatsService"]));
    expect(config.inbounds[0]).toMatchObject({
      tag: config.api.tag,
      listen: "127.0.0.1",
      port: 10085,
      protocol: "dokodemo-door",
    });
    expect(config.routing.rules[0]).toMatchObject({
      inboundTag: [config.api.tag],
      outboundTag: config.api.tag,
    });
    expect(config.stats).toEqual({});
    expect(config.policy.levels["0"]).toEqual({ statsUserUplink: true, statsUserDownlink: true });
    expect(config.log.access).toMatch(/^\//);
  });

  test("transports and TLS settings become the links' parameters; other inbounds are left alone", () => {
    const text = `{
      // the operator's own inbound: not the agent's
      "inbounds": [
        { "tag": "socks-local", "port": 1080, "protocol": "socks" },
        { "tag": "kannt-ws", "port": "8443", "protocol": "vless",
          "settings": { "clients": [], "decryption": "none" },
          "streamSettings": { "network": "ws", "security": "tls",
            "wsSettings": { "path": "/kannt", "headers": { "Host": "cdn.example" } },
            "tlsSettings": { "serverName": "vpn.example", "alpn": ["h2", "http/1.1"], "fingerprint": "firefox" } } },
        /* gRPC over TLS, VMess */
        { "tag": "kannt-grpc", "port": 2053, "protocol": "vmess",
          "streamSettings": { "network": "grpc", "security": "tls", "grpcSettings": { "serviceName": "svc" } } },
        { "tag": "kannt-xhttp", "port": 4443, "protocol": "vless",
          "settings": { "clients": [{ "id": "x", "flow": "" }] },
          "streamSettings": { "network": "xhttp", "xhttpSettings": { "path": "/x", "host": "h.example" } } },
        { "tag": "kannt-raw", "port": 9000, "protocol": "vless", "streamSettings": { "network": "raw" } }
      ]
    }`;
    expect(managedInbounds(text)).toEqual([
      {
        tag: "kannt-ws",
        protocol: "vless",
        port: 8443,
        network: "ws",
        path: "/kannt",
        hostHeader: "cdn.example",
        security: "tls",
        sni: "vpn.example",
        fingerprint: "firefox",
        alpn: ["h2", "http/1.1"],
      },
      {
        tag: "kannt-grpc",
        protocol: "vmess",
        port: 2053,
        network: "grpc",
        serviceName: "svc",
        security: "tls",
      },
      {
        tag: "kannt-xhttp",
        protocol: "vless",
        port: 4443,
        network: "xhttp",
        path: "/x",
        hostHeader: "h.example",
        security: "none",
      },
      { tag: "kannt-raw", protocol: "vless", port: 9000, network: "tcp", security: "none" },
    ]);
  });

  test("a flow set on the inbound's clients is the flow every added user gets", () => {
    const inbound = {
      tag: "kannt-vision",
      port: 443,
      protocol: "vless",
      settings: { clients: [{ id: "x", flow: "xtls-rprx-vision" }] },
      streamSettings: { network: "tcp", security: "tls", tlsSettings: { serverName: "a.example" } },
    };
    expect(managedInbounds(configWith(inbound))[0]?.flow).toBe("xtls-rprx-vision");
  });

  test.each([
    ["not JSON", "{ inbounds: [", /not valid JSON/],
    [
      "no managed inbound",
      configWith({ tag: "other", port: 1, protocol: "vless" }),
      /no inbound whose tag starts with "kannt"/,
    ],
    [
      "an unmanaged protocol",
      configWith({ tag: "kannt-t", port: 1, protocol: "trojan" }),
      /kannt-t: protocol "trojan"/,
    ],
    [
      "a port range",
      configWith({ tag: "kannt-r", port: "1000-2000", protocol: "vless" }),
      /kannt-r: port must be/,
    ],
    [
      "an unknown transport",
      configWith({ tag: "kannt-k", port: 1, protocol: "vless", streamSettings: { network: "kcp" } }),
      /kannt-k: network "kcp"/,
    ],
    [
      "REALITY without a key",
      configWith({ tag: "kannt-q", port: 1, protocol: "vless", streamSettings: { security: "reality" } }),
      /kannt-q: realitySettings.privateKey is missing/,
    ],
  ])("%s is refused with a message naming the inbound", (_, text, message) => {
    expect(() => managedInbounds(text)).toThrow(CoreConfigError);
    expect(() => managedInbounds(text)).toThrow(message);
  });

  test("comments are stripped outside strings only", () => {
    expect(
      JSON.parse(stripJsonComments('{"a": "//not a comment", /* x */ "b": "/*kept*/" // end\n}')),
    ).toEqual({
      a: "//not a comment",
      b: "/*kept*/",
    });
  });
});

describe("core version", () => {
  test("the version number each core prints first, or unknown", () => {
    expect(
      versionFromOutput("V2Ray 4.34.0 (user) 20230518-074445 (go1.19.8 linux/amd64)\nA unified platform"),
    ).toBe("4.34.0");
    expect(
      versionFromOutput("Xray 25.3.6 (Xray, Penetrates Everything.) 5a5b7b3 (go1.24.1 linux/amd64)"),
    ).toBe("25.3.6");
    expect(versionFromOutput("")).toBe("unknown");
  });
});

describe("REALITY's minClientVer in the report", () => {
  const reality = (realitySettings: Record<string, unknown>) =>
    configWith({
      tag: "kannt-reality",
      protocol: "vless",
      port: 443,
      settings: { clients: [] },
      streamSettings: {
        network: "tcp",
        security: "reality",
        realitySettings: {
          privateKey,
          serverNames: ["www.microsoft.com"],
          shortIds: ["ab"],
          ...realitySettings,
        },
      },
    });

  test("the config's value is reported as it is, whatever the core", () => {
    expect(managedInbounds(reality({ minClientVer: "1.8.0" }))[0]?.minClientVer).toBe("1.8.0");
    expect(
      managedInbounds(reality({ minClientVer: "25.1.1" }), { core: "xray", version: "26.8.1" })[0]
        ?.minClientVer,
    ).toBe("25.1.1");
  });

  test("unset: Xray 26.7.11 and later apply 26.3.27, older or unknown cores nothing", () => {
    expect(managedInbounds(reality({}), { core: "xray", version: "26.7.11" })[0]?.minClientVer).toBe(
      "26.3.27",
    );
    expect(managedInbounds(reality({}), { core: "xray", version: "27.1" })[0]?.minClientVer).toBe("26.3.27");
    expect(managedInbounds(reality({}), { core: "xray", version: "26.7.10" })[0]).not.toHaveProperty(
      "minClientVer",
    );
    expect(managedInbounds(reality({}), { core: "xray", version: "unknown" })[0]).not.toHaveProperty(
      "minClientVer",
    );
    expect(managedInbounds(reality({}))[0]).not.toHaveProperty("minClientVer");
  });

  test("a value that is no version stops the agent, naming the inbound", () => {
    expect(() => managedInbounds(reality({ minClientVer: "latest" }))).toThrow(
      /kannt-reality: realitySettings\.minClientVer/,
    );
  });
});
