import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { connectCoreApi } from "../../../agent/core-api";
import { managedInbounds } from "../../../agent/core-config";
import { stripJsonComments } from "../../../agent/json-comments";
import { freePort, requireV2ray, startV2ray, type V2rayProcess } from "../../helpers/v2ray-node";

/**
 * deploy/v2ray.example.json, the node guide's config for Debian's V2Ray 4: V2Ray itself
 * accepts it (`v2ray -test`), the agent's config reader manages its two inbounds, and run
 * for real its API takes the agent's calls on both. Fails, never skips, without v2ray.
 */
const example = readFileSync(new URL("../../../deploy/v2ray.example.json", import.meta.url), "utf8");
const directory = mkdtempSync(join(tmpdir(), "kannt-v2ray-example-"));
let running: V2rayProcess | undefined;
afterAll(async () => {
  await running?.stop();
  rmSync(directory, { recursive: true, force: true });
});

/** A certificate and key for the node's domain, made by V2Ray's own tool (same package). */
function certificatePair(): { certificate: string; key: string } {
  const prefix = join(directory, "node");
  const made = Bun.spawnSync(
    [requireV2ray().replace(/v2ray$/, "v2ctl"), "cert", "--domain=vpn1.kannt.example", `--file=${prefix}`],
    { stdout: "pipe", stderr: "pipe" },
  );
  expect(made.exitCode, made.stderr.toString()).toBe(0);
  return { certificate: `${prefix}_cert.pem`, key: `${prefix}_key.pem` };
}

/**
 * The example as shipped, comments and all, with what systemd provides on a node (the
 * unit's LoadCredential files, its LogsDirectory) in the test's folder instead.
 */
function asOnTheNode(text: string): string {
  const { certificate, key } = certificatePair();
  return text
    .replaceAll("/run/credentials/v2ray.service/tls.crt", certificate)
    .replaceAll("/run/credentials/v2ray.service/tls.key", key)
    .replaceAll("/var/log/v2ray/", `${directory}/`);
}

function v2rayTest(text: string, name: string) {
  const path = join(directory, name);
  writeFileSync(path, text);
  const run = Bun.spawnSync([requireV2ray(), "-test", "-config", path], { stdout: "pipe", stderr: "pipe" });
  return { exitCode: run.exitCode, output: `${run.stdout.toString()}${run.stderr.toString()}` };
}

type Json = Record<string, unknown>;
type Inbound = { tag: string; port: number; listen?: string; streamSettings?: Json };

describe("deploy/v2ray.example.json", () => {
  test("V2Ray 4 accepts it (`v2ray -test -config`), comments and all", () => {
    expect(example).toContain("// ");
    const accepted = v2rayTest(asOnTheNode(example), "example.json");
    expect(accepted.exitCode, accepted.output).toBe(0);
    expect(accepted.output).toContain("Configuration OK");
    // The check can refuse: a rule naming geoip:private needs a geoip.dat Debian does not ship.
    const refused = v2rayTest(asOnTheNode(example.replace('"10.0.0.0/8"', '"geoip:private"')), "bad.json");
    expect(refused.exitCode).not.toBe(0);
  });

  test("the agent manages its VLESS and VMess inbounds, over TLS, as the links need them", () => {
    expect(managedInbounds(example)).toEqual([
      {
        tag: "kannt-vless",
        protocol: "vless",
        port: 443,
        network: "tcp",
        security: "tls",
        sni: "vpn1.kannt.example",
        alpn: ["http/1.1"],
      },
      {
        tag: "kannt-vmess",
        protocol: "vmess",
        port: 8443,
        network: "ws",
        path: "/REPLACE_WITH_RANDOM_HEX",
        security: "tls",
        sni: "vpn1.kannt.example",
      },
    ]);
  });

  test("customers' traffic to loopback and private networks is blocked, the API's own route first", () => {
    const config = JSON.parse(stripJsonComments(example)) as {
      log: { access: string };
      inbounds: Inbound[];
      outbounds: { tag: string; protocol: string }[];
      routing: {
        domainStrategy: string;
        rules: { inboundTag?: string[]; ip?: string[]; outboundTag: string }[];
      };
    };
    expect(config.log.access).toBe("/var/log/v2ray/access.log");
    const api = config.inbounds.find((inbound) => inbound.tag === "api");
    expect(api).toMatchObject({ listen: "127.0.0.1", port: 10085 });
    expect(config.outbounds).toContainEqual({ tag: "block", protocol: "blackhole" });
    const [apiRoute, privateRoute] = config.routing.rules;
    expect(apiRoute).toEqual({ type: "field", inboundTag: ["api"], outboundTag: "api" });
    expect(privateRoute?.outboundTag).toBe("block");
    for (const network of [
      "127.0.0.0/8",
      "10.0.0.0/8",
      "172.16.0.0/12",
      "192.168.0.0/16",
      "::1/128",
      "fc00::/7",
    ])
      expect(privateRoute?.ip).toContain(network);
    // A name is resolved before the rules when no rule names it, so one that leads inside is blocked too.
    expect(config.routing.domainStrategy).toBe("IPIfNonMatch");
  });

  test("run for real, its API takes the agent's calls on both managed inbounds", async () => {
    const config = JSON.parse(stripJsonComments(asOnTheNode(example))) as {
      log: Json;
      inbounds: Inbound[];
    };
    // Free ports on loopback; nothing else changed.
    for (const inbound of config.inbounds) {
      inbound.port = await freePort();
      inbound.listen = "127.0.0.1";
    }
    const accessLog = join(directory, "access.log");
    expect(config.log.access).toBe(accessLog);
    const apiPort = config.inbounds.find((inbound) => inbound.tag === "api")?.port ?? 0;
    running = (await startV2ray(directory, "node", config, apiPort)).process;

    const api = connectCoreApi("v2ray", `127.0.0.1:${apiPort}`);
    try {
      const vless = {
        email: "dev-example-vless",
        level: 0,
        account: { protocol: "vless", id: randomUUID(), flow: "" },
      } as const;
      const vmess = {
        email: "dev-example-vmess",
        level: 0,
        account: { protocol: "vmess", id: randomUUID() },
      } as const;
      expect(await api.addUser("kannt-vless", vless)).toBe("added");
      expect(await api.addUser("kannt-vmess", vmess)).toBe("added");
      expect(await api.addUser("kannt-vless", vless)).toBe("exists");
      expect(await api.removeUser("kannt-vmess", vmess.email)).toBe("removed");
      expect((await api.sysStats()).uptimeSeconds).toBeGreaterThanOrEqual(0);
      expect(Array.isArray(await api.takeUserTraffic())).toBe(true);
    } finally {
      api.close();
    }
    expect(existsSync(accessLog), running.output()).toBe(true);
  }, 60_000);
});
