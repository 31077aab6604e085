import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, sessionOf, staffOf } from "../../helpers/api";
import {
  type CapturedProcess,
  type RunningServer,
  spawnCapturedCommand,
  startCapturedServer,
} from "../../helpers/captured-process";
import { CensorNetwork } from "../../helpers/censor-network";
import { tokensFor } from "../../helpers/operators";
import { outputOf, stopProcess, until as waitUntil } from "../../helpers/real-core-rig";
import { payingCustomer } from "../../helpers/refunds";
import { remoteApp } from "../../helpers/remote-app";
import { clientAppConfig, outboundFromLink, subscriptionLinks } from "../../helpers/share-link-outbound";
import { freePort, nodeConfig, requireV2ray } from "../../helpers/v2ray-node";

/**
 * DESIGN §8 and §10, access that survives blocking, on a network of the test's own
 * (tests/helpers/censor-network.ts): a VPN node (Debian's V2Ray with two entries, its
 * agent), a probe agent in the customers' network and a customer's client, each in its
 * own namespace, the product in the test's. A censor (`nft` in the node's namespace) drops
 * one entry's port from the probe's network. The probe interval is shortened through the
 * probe's own setting (PROBE_INTERVAL_SECONDS), not the rule: two failed checks in a row
 * take the blocked entry out of every format; the other keeps carrying the client's
 * traffic; both come back when the rule goes. DESIGN's bound, 5 minutes each way, is the
 * only limit asserted; the measured times are printed.
 */
const admin = { username: "censor.admin", password: "a censor admin password 24" };
const budgetMs = 5 * 60_000;
const formats = ["base64", "singbox", "clash", "xray"] as const;

let directory: string;
let network: CensorNetwork;
let server: RunningServer | undefined;
let origin: string;
let port: number;
let node: CapturedProcess | undefined;
let agent: CapturedProcess | undefined;
let probe: CapturedProcess | undefined;
let client: CapturedProcess | undefined;
let subscriptionUrl: string;
const ports = { api: 0, vless: 0, vmess: 0 };

/** What the formats listed at the last look, for a failure's message. */
let lastSeen: Record<string, number[]> = {};
const logs = () =>
  `formats listed, by port: ${JSON.stringify(lastSeen)} (vless ${ports.vless}, vmess ${ports.vmess})\nnode agent: ${outputOf(agent).slice(-3000)}\nprobe: ${outputOf(probe).slice(-3000)}\nnode core: ${outputOf(node).slice(-1000)}`;
const until = (what: string, condition: () => Promise<boolean> | boolean, limitMs = 180_000) =>
  waitUntil(what, condition, { limitMs, context: logs });

async function cli(args: string[], environment: Record<string, string>): Promise<string> {
  const run = Bun.spawn(["bun", "bff/cli.ts", ...args], {
    env: { ...process.env, ...environment, LOG_LEVEL: "error" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [output, errors, exitCode] = await Promise.all([
    new Response(run.stdout).text(),
    new Response(run.stderr).text(),
    run.exited,
  ]);
  expect(exitCode, errors).toBe(0);
  return (output.trim().split("\n").at(-1) ?? "").split(/\s+/).at(-1) ?? "";
}

/** Whether something inside `space` accepts TCP on `port` of its own loopback. */
function listensInside(space: string, portNumber: number): boolean {
  const probeConnection = Bun.spawnSync(
    network.inside(space, ["bash", "-c", `exec 3<>/dev/tcp/127.0.0.1/${portNumber}`]),
    { stdout: "ignore", stderr: "ignore" },
  );
  return probeConnection.exitCode === 0;
}

/** The entries each format lists for the customer now, by the port they dial. */
async function portsByFormat(): Promise<Record<string, number[]>> {
  const found: Record<string, number[]> = {};
  for (const format of formats) {
    const body = await (await fetch(`${subscriptionUrl}?format=${format}`)).text();
    // A share link as an app reads it (a vmess:// link's port is inside its JSON).
    const text =
      format === "base64"
        ? subscriptionLinks(body)
            .map((link) => `:${outboundFromLink(link).settings.vnext[0]?.port}`)
            .join("\n")
        : body;
    found[format] = [ports.vless, ports.vmess].filter((entryPort) =>
      new RegExp(`(:|port["']?:\\s*)${entryPort}\\b`).test(text),
    );
  }
  lastSeen = found;
  return found;
}
const everywhere = (entryPorts: number[]) =>
  Object.fromEntries(formats.map((format) => [format, entryPorts]));

/** The customer's client fetches the product's health through its local proxy (inside its namespace). */
function clientReachesTarget(proxyPort: number): boolean {
  const target = `http://${network.productFromNode}:${port}/api/health`;
  const run = Bun.spawnSync(
    network.inside(network.client, [
      "bun",
      "-e",
      `const r = await fetch(${JSON.stringify(target)}, { proxy: "http://127.0.0.1:${proxyPort}", signal: AbortSignal.timeout(10000) }); process.exit(r.ok ? 0 : 1);`,
    ]),
    { stdout: "ignore", stderr: "ignore" },
  );
  return run.exitCode === 0;
}

beforeAll(async () => {
  requireV2ray();
  network = CensorNetwork.create();
  directory = mkdtempSync(join(tmpdir(), "kannt-censor-"));
  port = await freePort();
  const environment = {
    APP_MODE: "demo",
    DATABASE_PATH: join(directory, "data", "app.db"),
    STATIC_DIR: join(directory, "no-site"),
    // Every address of this machine: the node and the probe reach it over their veth pairs.
    HOST: "0.0.0.0",
    PORT: String(port),
    BILLING_INTERVAL_SECONDS: "0",
    ALTCHA_MAX_NUMBER: "5000",
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
  };
  server = await startCapturedServer(environment);
  origin = server.origin;
  const nodeKey = await cli(["node", "censored-1"], environment);
  const probeKey = await cli(["probe", "msk-mobile"], environment);

  // The node: V2Ray with a VLESS and a VMess inbound on every address of its namespace.
  Object.assign(ports, { api: await freePort(), vless: await freePort(), vmess: await freePort() });
  const config = nodeConfig(ports, join(directory, "access.log"));
  for (const inbound of config.inbounds) if (inbound.tag !== "api") inbound.listen = "0.0.0.0";
  const configPath = join(directory, "node.json");
  writeFileSync(configPath, JSON.stringify(config));
  node = spawnCapturedCommand(network.inside(network.node, ["v2ray", "-config", configPath]), {});
  await until("the node's core", () => listensInside(network.node, ports.api));
  agent = spawnCapturedCommand(network.inside(network.node, ["bun", "agent/main.ts"]), {
    KANNT_URL: `http://${network.productFromNode}:${port}`,
    NODE_KEY: nodeKey,
    NODE_HOST: network.nodeHost,
    CORE: "v2ray",
    CORE_API: `127.0.0.1:${ports.api}`,
    CORE_CONFIG: configPath,
    CORE_ACCESS_LOG: join(directory, "access.log"),
    AGENT_STATE: join(directory, "agent-state.json"),
  });

  const customer = await payingCustomer(remoteApp(origin), "censored@example.com");
  const connected = await dataOf(
    apiOf(remoteApp(origin)).profile.devices.connect.post(identityOf(customer), sessionOf(customer)),
  );
  subscriptionUrl = connected.subscriptionUrl;
  await until(
    "both entries in every format",
    async () => {
      const found = await portsByFormat();
      return formats.every((format) => found[format]?.length === 2);
    },
    60_000,
  );

  // The customer's client, configured from the unblocked entry's link, in its own namespace.
  const links = subscriptionLinks(await (await fetch(`${subscriptionUrl}?format=base64`)).text());
  const vmessLink = links.find((link) => link.startsWith("vmess://"));
  if (!vmessLink) throw new Error(`no VMess link in ${links.join("\n")}`);
  const clientProxy = await freePort();
  const clientPath = join(directory, "client.json");
  writeFileSync(
    clientPath,
    JSON.stringify(clientAppConfig([{ proxyPort: clientProxy, outbound: outboundFromLink(vmessLink) }])),
  );
  client = spawnCapturedCommand(network.inside(network.client, ["v2ray", "-config", clientPath]), {});
  await until("the client's proxy", () => listensInside(network.client, clientProxy));
  Object.assign(ports, { client: clientProxy });
  await until("the customer's traffic through the node", () => clientReachesTarget(clientProxy));

  probe = spawnCapturedCommand(network.inside(network.probe, ["bun", "agent/main.ts"]), {
    AGENT_MODE: "probe",
    KANNT_URL: `http://${network.productFromProbe}:${port}`,
    PROBE_KEY: probeKey,
    CORE: "v2ray",
    CORE_BIN: requireV2ray(),
    // Fetched through each entry: the node reaches the product on its own side.
    PROBE_TARGET: `http://${network.productFromNode}:${port}/api/health`,
    PROBE_INTERVAL_SECONDS: "3",
    AGENT_STATE: join(directory, "probe-state.json"),
  });
}, 300_000);

afterAll(async () => {
  for (const process of [probe, client, agent, node]) await stopProcess(process);
  await server?.stop();
  network?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

async function panelEntries() {
  const product = remoteApp(origin);
  const asAdmin = staffOf((await tokensFor(product, admin.username, admin.password)).accessToken);
  return (await dataOf(apiOf(product).panel.entries.get(asAdmin))).entries;
}

describe("a censor between the customers' network and a node", () => {
  test("the blocked entry leaves every format within 5 minutes while the other carries traffic; both come back", async () => {
    const clientProxy = (ports as typeof ports & { client: number }).client;
    await until("the probe finds both entries up", async () => {
      const entries = await panelEntries();
      return entries.length === 2 && entries.every((entry) => entry.probes.some((verdict) => verdict.up));
    });

    network.block(ports.vless);
    const blockedAt = performance.now();
    await until(
      "the blocked entry out of every format",
      async () => Bun.deepEquals(await portsByFormat(), everywhere([ports.vmess])),
      budgetMs,
    );
    const outAfter = performance.now() - blockedAt;
    const blocked = (await panelEntries()).find((entry) => entry.inboundTag === "kannt-vless");
    expect(blocked?.out).toBe("probeDown");
    expect(blocked?.probes[0]?.lastError).toBeTruthy();
    // The customer's client, on a network the censor does not touch, carries on through the other entry.
    expect(clientReachesTarget(clientProxy)).toBe(true);

    network.unblock();
    const unblockedAt = performance.now();
    await until(
      "the entry back in every format",
      async () => Bun.deepEquals(await portsByFormat(), everywhere([ports.vless, ports.vmess])),
      budgetMs,
    );
    const backAfter = performance.now() - unblockedAt;
    console.log(
      `censor: blocked entry out of every format after ${(outAfter / 1000).toFixed(1)} s, back ${(backAfter / 1000).toFixed(1)} s after the rule went (probe every 3 s; budget 300 s each)`,
    );
    expect(clientReachesTarget(clientProxy)).toBe(true);
  }, 700_000);
});
