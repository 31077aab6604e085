import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type CapturedProcess, spawnCaptured } from "../../helpers/captured-process";
import { FakeNodeApi } from "../../helpers/fake-node-api";
import { getThroughProxy, reaches } from "../../helpers/proxy-tunnel";
import {
  appConfig,
  freePort,
  type NodePorts,
  nodeConfig,
  requireV2ray,
  startV2ray,
  type V2rayProcess,
} from "../../helpers/v2ray-node";

/**
 * The agent (`bun agent/main.ts`, configured by environment as in production) beside a
 * real V2Ray node, a second V2Ray as the customer's app, a fake product and a local HTTP
 * target: access granted, refused, revoked (open connections included), restored after a
 * core restart, expired by the agent's clock with the product down, and restored from
 * AGENT_STATE by a restarted agent with the product down.
 */
const nodeKey = "node_agent-test-key";
const marker = `target-${randomUUID()}`;
const allowedTag = "dev-allowed";
const allowedId = randomUUID();
const shortTag = "dev-short";
const shortId = randomUUID();

/** Polls until `condition` holds; the bound only turns a hang into a message. */
async function until(what: string, condition: () => Promise<boolean> | boolean): Promise<void> {
  const startedAt = Date.now();
  while (!(await condition())) {
    if (Date.now() - startedAt > 120_000) throw new Error(`still waiting for: ${what}`);
    await Bun.sleep(200);
  }
}

let directory: string;
let ports: NodePorts;
let proxies: { vless: number; vmess: number; madeUp: number; short: number };
let target: ReturnType<typeof Bun.serve>;
let product: FakeNodeApi;
let productPort: number;
let node: V2rayProcess;
let nodeConfigPath: string;
let app: V2rayProcess;
let agent: CapturedProcess | undefined;

const accessLog = () => join(directory, "access.log");

async function startNode(): Promise<void> {
  const started = await startV2ray(directory, "node", nodeConfig(ports, accessLog()), ports.api);
  node = started.process;
  nodeConfigPath = started.configPath;
}

function startAgent(): void {
  agent = spawnCaptured("agent/main.ts", {
    KANNT_URL: `http://127.0.0.1:${productPort}`,
    NODE_KEY: nodeKey,
    NODE_HOST: "127.0.0.1",
    CORE: "v2ray",
    CORE_API: `127.0.0.1:${ports.api}`,
    CORE_CONFIG: nodeConfigPath,
    CORE_ACCESS_LOG: accessLog(),
    AGENT_STATE: join(directory, "agent-state.json"),
  });
}

async function stopAgent(): Promise<void> {
  if (!agent) return;
  agent.child.kill("SIGTERM");
  await agent.child.exited;
  agent = undefined;
}

const agentLog = () => `${agent?.stdout() ?? ""}${agent?.stderr() ?? ""}`;

beforeAll(async () => {
  requireV2ray();
  directory = mkdtempSync(join(tmpdir(), "kannt-agent-"));
  ports = { api: await freePort(), vless: await freePort(), vmess: await freePort() };
  proxies = {
    vless: await freePort(),
    vmess: await freePort(),
    madeUp: await freePort(),
    short: await freePort(),
  };
  target = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    fetch(request) {
      if (new URL(request.url).pathname !== "/stream") return new Response(marker);
      let timer: ReturnType<typeof setInterval> | undefined;
      const body = new ReadableStream({
        start(controller) {
          timer = setInterval(() => controller.enqueue(new TextEncoder().encode("tick\n")), 100);
        },
        cancel() {
          clearInterval(timer);
        },
      });
      return new Response(body, { headers: { "content-type": "text/plain" } });
    },
  });
  product = new FakeNodeApi(nodeKey);
  productPort = product.start();
  await startNode();
  ({ process: app } = await startV2ray(
    directory,
    "app",
    appConfig(ports, [
      { proxyPort: proxies.vless, protocol: "vless", id: allowedId },
      { proxyPort: proxies.vmess, protocol: "vmess", id: allowedId },
      { proxyPort: proxies.madeUp, protocol: "vless", id: randomUUID() },
      { proxyPort: proxies.short, protocol: "vless", id: shortId },
    ]),
    proxies.short,
  ));
  product.allow(allowedTag, allowedId, 24 * 60 * 60 * 1000);
  startAgent();
});

afterAll(async () => {
  await stopAgent();
  await node?.stop();
  await app?.stop();
  product?.stop();
  await target?.stop(true);
  if (directory) rmSync(directory, { recursive: true, force: true });
});

const targetPort = () => target.port ?? 0;
const reachesVia = (proxyPort: number) => reaches(proxyPort, targetPort(), marker);

describe("the node agent beside a real V2Ray", () => {
  test("an allowed credential reaches the target over VLESS and VMess; a made-up one is refused", async () => {
    await until(`the allowed credential reaches the target over VLESS (agent log: ${agentLog()})`, () =>
      reachesVia(proxies.vless),
    );
    await until("the allowed credential reaches the target over VMess", () => reachesVia(proxies.vmess));
    expect(await reachesVia(proxies.madeUp)).toBe(false);
    expect(product.refusedCalls).toEqual([]);
  });

  test("reports describe the node; traffic and connection events arrive, without destinations", async () => {
    await until("a report with the applied version", () =>
      product.reports.some((report) => report.appliedVersion === product.version && report.credentials === 1),
    );
    const report = product.reports.at(-1);
    expect(report).toMatchObject({
      core: "v2ray",
      host: "127.0.0.1",
      appliedVersion: product.version,
      credentials: 1,
    });
    expect(report?.coreVersion).toMatch(/^4\.\d+\.\d+$/);
    expect(report?.inbounds).toEqual([
      { tag: "kannt-vless", protocol: "vless", port: ports.vless, network: "tcp", security: "none" },
      { tag: "kannt-vmess", protocol: "vmess", port: ports.vmess, network: "tcp", security: "none" },
    ]);

    await until("traffic and a connection event of the allowed device", () => {
      const traffic = product.events
        .flatMap((batch) => batch.traffic)
        .filter((sample) => sample.tag === allowedTag);
      const connections = product.events.flatMap((batch) => batch.connections);
      return (
        traffic.reduce((sum, sample) => sum + sample.download, 0) > marker.length &&
        traffic.reduce((sum, sample) => sum + sample.upload, 0) > 0 &&
        connections.some(
          (event) => event.tag === allowedTag && event.clientIp === "127.0.0.1" && event.success,
        )
      );
    });
    const sent = JSON.stringify(product.events);
    // Nothing about where the customer went: not the target's address, not the made-up credential's refusal.
    expect(sent).not.toContain(String(targetPort()));
    for (const event of product.events.flatMap((batch) => batch.connections))
      expect(Object.keys(event).sort()).toEqual(["at", "clientIp", "success", "tag"]);
  });

  test("a removal refuses new connections and ends an open streaming response within 5 s", async () => {
    const stream = getThroughProxy(proxies.vless, targetPort(), "/stream");
    // Chunked: each tick arrives in its own chunk.
    await until("the stream flows", () => stream.received().split("tick").length > 3);

    const revokedAt = Date.now();
    product.revoke(allowedTag);
    await until("the open stream ends", () => stream.isClosed());
    const endedAfterMs = Date.now() - revokedAt;
    const receivedAtEnd = stream.received().length;
    expect(endedAfterMs, `the stream ended ${endedAfterMs} ms after the revocation`).toBeLessThanOrEqual(
      5_000,
    );
    expect(await reachesVia(proxies.vless)).toBe(false);
    expect(await reachesVia(proxies.vmess)).toBe(false);
    expect(stream.received().length).toBe(receivedAtEnd);
    await until("a report of an empty core", () => product.reports.at(-1)?.credentials === 0);
  });

  test("a restarted core gets its users back within 15 s", async () => {
    product.allow(allowedTag, allowedId, 24 * 60 * 60 * 1000);
    await until("the credential is back", () => reachesVia(proxies.vless));

    await node.stop();
    await startNode();
    const restartedAt = Date.now();
    await until("the credential works on the restarted core", () => reachesVia(proxies.vless));
    const backAfterMs = Date.now() - restartedAt;
    expect(backAfterMs, `back ${backAfterMs} ms after the restart`).toBeLessThanOrEqual(15_000);
    expect(agentLog()).toContain("the core restarted");
  });

  test("an entry leaves when its time runs out by the agent's clock, with the product stopped; the others stay", async () => {
    // Long enough for the first check to get through on a busy machine, short enough to run out here.
    product.allow(shortTag, shortId, 25_000);
    await until("the short entry works", () => reachesVia(proxies.short));
    product.stop();

    await until("the short entry is refused after its time", async () => !(await reachesVia(proxies.short)));
    expect(await reachesVia(proxies.vless)).toBe(true);
    expect(agentLog()).toContain("credentials expired");
    expect(agentLog()).toContain("allow-list fetch failed");
  });

  test("an agent restarted with the product down puts its saved list back on a core that lost it", async () => {
    await stopAgent();
    await node.stop();
    await startNode();
    // The fresh core holds nobody: the agent's saved list is the only source left.
    expect(await reachesVia(proxies.vless)).toBe(false);

    startAgent();
    await until(`the saved credential works again (agent log: ${agentLog()})`, () =>
      reachesVia(proxies.vless),
    );
    expect(await reachesVia(proxies.short)).toBe(false);
    expect(agentLog()).toContain("saved allow-list loaded");
  });
});
