import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FakeNodeApi } from "../../helpers/fake-node-api";
import { getThroughProxy, reaches } from "../../helpers/proxy-tunnel";
import {
  NodeBesideProduct,
  stopNodeBesideProduct,
  streamingTarget,
  until,
} from "../../helpers/real-core-rig";
import { freePort, type V2rayProcess } from "../../helpers/v2ray-node";

/**
 * The agent (its own package installed as on a node, run by Node 22 and configured by
 * environment as in production) beside a real V2Ray node, a second V2Ray as the customer's
 * app, a fake product and a local HTTP target: access granted, refused, revoked (open connections included), restored after a
 * core restart, expired by the agent's clock with the product down, and restored from
 * AGENT_STATE by a restarted agent with the product down.
 */
const nodeKey = "node_agent-test-key";
const marker = `target-${randomUUID()}`;
const allowedTag = "dev-allowed";
const allowedId = randomUUID();
const shortTag = "dev-short";
const shortId = randomUUID();

let proxies: { vless: number; vmess: number; madeUp: number; short: number };
let target: ReturnType<typeof Bun.serve>;
let product: FakeNodeApi;
let app: V2rayProcess;
let rig: NodeBesideProduct;

beforeAll(async () => {
  proxies = {
    vless: await freePort(),
    vmess: await freePort(),
    madeUp: await freePort(),
    short: await freePort(),
  };
  target = streamingTarget(marker);
  product = new FakeNodeApi(nodeKey);
  // As the node guide installs it: the agent's own package, `npm ci --omit=dev`, on Node 22.
  rig = await NodeBesideProduct.create("agent", `http://127.0.0.1:${product.start()}`, nodeKey, {
    onNode: true,
  });
  await rig.startNode();
  app = await rig.startApp([
    { proxyPort: proxies.vless, protocol: "vless", id: allowedId },
    { proxyPort: proxies.vmess, protocol: "vmess", id: allowedId },
    { proxyPort: proxies.madeUp, protocol: "vless", id: randomUUID() },
    { proxyPort: proxies.short, protocol: "vless", id: shortId },
  ]);
  product.allow(allowedTag, allowedId, 24 * 60 * 60 * 1000);
  rig.startAgent();
});

afterAll(() => stopNodeBesideProduct({ app, rig, product, target }));

const targetPort = () => target.port ?? 0;
const reachesVia = (proxyPort: number) => reaches(proxyPort, targetPort(), marker);

describe("the node agent beside a real V2Ray", () => {
  test("an allowed credential reaches the target over VLESS and VMess; a made-up one is refused", async () => {
    await until("the allowed credential reaches the target over VLESS", () => reachesVia(proxies.vless), {
      context: () => rig.agentLog,
    });
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
      { tag: "kannt-vless", protocol: "vless", port: rig.ports.vless, network: "tcp", security: "none" },
      { tag: "kannt-vmess", protocol: "vmess", port: rig.ports.vmess, network: "tcp", security: "none" },
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

    await rig.node?.stop();
    await rig.startNode();
    const restartedAt = Date.now();
    await until("the credential works on the restarted core", () => reachesVia(proxies.vless));
    const backAfterMs = Date.now() - restartedAt;
    expect(backAfterMs, `back ${backAfterMs} ms after the restart`).toBeLessThanOrEqual(15_000);
    expect(rig.agentLog).toContain("the core restarted");
  });

  test("an entry leaves when its time runs out by the agent's clock, with the product stopped; the others stay", async () => {
    // Long enough for the first check to get through on a busy machine, short enough to run out here.
    product.allow(shortTag, shortId, 25_000);
    await until("the short entry works", () => reachesVia(proxies.short));
    product.stop();

    await until("the short entry is refused after its time", async () => !(await reachesVia(proxies.short)));
    expect(await reachesVia(proxies.vless)).toBe(true);
    expect(rig.agentLog).toContain("credentials expired");
    expect(rig.agentLog).toContain("allow-list fetch failed");
  });

  test("an agent restarted with the product down puts its saved list back on a core that lost it", async () => {
    await rig.stopAgent();
    await rig.node?.stop();
    await rig.startNode();
    // The fresh core holds nobody: the agent's saved list is the only source left.
    expect(await reachesVia(proxies.vless)).toBe(false);

    rig.startAgent();
    await until("the saved credential works again", () => reachesVia(proxies.vless), {
      context: () => rig.agentLog,
    });
    expect(await reachesVia(proxies.short)).toBe(false);
    expect(rig.agentLog).toContain("saved allow-list loaded");
  });
});
