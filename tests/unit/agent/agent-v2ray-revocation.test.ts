import { randomUUID } from "node:crypto";
import { appendFileSync, statSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FakeNodeApi } from "../../helpers/fake-node-api";
import { getThroughProxy, reaches, type Tunnel } from "../../helpers/proxy-tunnel";
import {
  NodeBesideProduct,
  stopNodeBesideProduct,
  streamingTarget,
  until,
} from "../../helpers/real-core-rig";
import { freePort, type V2rayProcess } from "../../helpers/v2ray-node";

/**
 * DESIGN §8 "Revocation covers every connection of a credential", against a real V2Ray:
 * a device with more than a thousand connections and a long stream, an agent restarted
 * behind more than 10 MB of other customers' log lines, a node the product disables, and a
 * core that goes down. After each revocation no byte may flow on any connection 5 s on.
 */
const nodeKey = "node_revocation-test-key";
const marker = `target-${randomUUID()}`;
const devices = {
  many: { tag: "dev-many", id: randomUUID() },
  restarted: { tag: "dev-restarted", id: randomUUID() },
  disabled: { tag: "dev-disabled", id: randomUUID() },
};
const revocationBoundMs = 5_000;

let proxies: Record<keyof typeof devices, number>;
let target: ReturnType<typeof Bun.serve>;
let product: FakeNodeApi;
let app: V2rayProcess;
let rig: NodeBesideProduct;

beforeAll(async () => {
  proxies = { many: await freePort(), restarted: await freePort(), disabled: await freePort() };
  target = streamingTarget(marker);
  product = new FakeNodeApi(nodeKey);
  rig = await NodeBesideProduct.create("revocation", `http://127.0.0.1:${product.start()}`, nodeKey);
  await rig.startNode();
  app = await rig.startApp([
    { proxyPort: proxies.many, protocol: "vless", id: devices.many.id },
    { proxyPort: proxies.restarted, protocol: "vmess", id: devices.restarted.id },
    { proxyPort: proxies.disabled, protocol: "vless", id: devices.disabled.id },
  ]);
  for (const device of Object.values(devices)) product.allow(device.tag, device.id, 24 * 60 * 60 * 1000);
  rig.startAgent();
  await until(
    "the agent has every device on the core",
    async () => (await Promise.all(Object.values(proxies).map((port) => reachesVia(port)))).every(Boolean),
    { context: () => rig.agentLog },
  );
});

afterAll(() => stopNodeBesideProduct({ app, rig, product, target }));

const targetPort = () => target.port ?? 0;
const reachesVia = (proxyPort: number) => reaches(proxyPort, targetPort(), marker);

/** One request that hangs up once the answer is in: the core's side of it lingers as a real app's would. */
async function shortConnection(proxyPort: number): Promise<boolean> {
  const tunnel = getThroughProxy(proxyPort, targetPort(), "/hello");
  const startedAt = Date.now();
  while (!tunnel.received().includes(marker) && !tunnel.isClosed() && Date.now() - startedAt < 20_000)
    await Bun.sleep(5);
  const isAnswered = tunnel.received().includes(marker);
  tunnel.close();
  return isAnswered;
}

async function flowingStream(proxyPort: number): Promise<Tunnel> {
  const stream = getThroughProxy(proxyPort, targetPort(), "/stream");
  await until("the stream flows", () => stream.received().split("tick").length > 3);
  return stream;
}

/**
 * The streams end within the bound, and nothing arrives on any of them after it: a
 * connection the agent did not close would keep ticking every 100 ms.
 */
async function expectAllCut(streams: Tunnel[], revokedAt: number, what: string): Promise<void> {
  await until("every stream has ended", () => streams.every((stream) => stream.isClosed()));
  const endedAfterMs = Date.now() - revokedAt;
  console.log(`[revocation] ${what}: every stream ended ${endedAfterMs} ms after the change`);
  expect(endedAfterMs, `the last stream ended ${endedAfterMs} ms after the revocation`).toBeLessThanOrEqual(
    revocationBoundMs,
  );
  const received = streams.map((stream) => stream.received().length);
  await Bun.sleep(1_000);
  expect(streams.map((stream) => stream.received().length)).toEqual(received);
  for (const stream of streams)
    expect(stream.lastDataAt()).toBeLessThanOrEqual(revokedAt + revocationBoundMs);
}

describe("revocation on a real V2Ray reaches every connection", () => {
  test("a device with more than 1,000 connections and a long stream: all of them end within 5 s", async () => {
    const stream = await flowingStream(proxies.many);
    // Forty more held open, then 1,100 short ones after them: the stream is the oldest of all.
    const held = await Promise.all(Array.from({ length: 40 }, () => flowingStream(proxies.many)));
    let made = 0;
    let answered = 0;
    const worker = async () => {
      while (made < 1_100) {
        made++;
        if (await shortConnection(proxies.many)) answered++;
      }
    };
    await Promise.all(Array.from({ length: 25 }, worker));
    expect(answered).toBe(1_100);
    expect(stream.isClosed()).toBe(false);

    const revokedAt = Date.now();
    product.revoke(devices.many.tag);
    await expectAllCut([stream, ...held], revokedAt, "1,100 connections and 41 streams");
    expect(await reachesVia(proxies.many)).toBe(false);
    // The others were not touched.
    expect(await reachesVia(proxies.restarted)).toBe(true);
    // 1,141 connections through a real core: well within the default on a quiet machine, but a
    // CI run with both cores busy took it past 120 s before the revocation was even sent.
  }, 360_000);

  test("an agent restarted behind more than 10 MB of other customers' lines still cuts a stream opened before", async () => {
    const stream = await flowingStream(proxies.restarted);
    const instancesBefore = [...product.instances];
    await rig.stopAgent();
    let filler = "";
    for (let index = 0; filler.length < 1024 * 1024; index++)
      filler += `2026/11/26 01:09:00 198.51.100.${index % 250}:${10_000 + (index % 50_000)} accepted tcp:example.com:443 [direct] email: dev-other-${index % 97}\n`;
    for (let megabyte = 0; megabyte < 11; megabyte++) appendFileSync(rig.accessLog, filler);
    expect(statSync(rig.accessLog).size).toBeGreaterThan(10 * 1024 * 1024);

    rig.startAgent();
    await until(
      "the restarted agent found the open stream",
      () => rig.agentLog.includes("open connections found at start"),
      { context: () => rig.agentLog },
    );
    await until(
      "the restarted agent reports",
      () => product.reports.length > 0 && rig.agentLog.includes("started"),
    );
    // A paying customer's stream is left alone by the restart.
    await Bun.sleep(1_000);
    expect(stream.isClosed()).toBe(false);
    // The same agent: its name towards the product survived the restart.
    expect([...product.instances]).toEqual(instancesBefore);

    const revokedAt = Date.now();
    product.revoke(devices.restarted.tag);
    await expectAllCut([stream], revokedAt, "after a restart behind 11 MB of log");
    expect(await reachesVia(proxies.restarted)).toBe(false);
  });

  test("a node the product disables (403) empties its core: open connections end and new ones are refused", async () => {
    const stream = await flowingStream(proxies.disabled);
    const disabledAt = Date.now();
    product.refusal = { status: 403, code: "node_disabled" };
    // The waiting long poll ends with a change; the next question is refused.
    product.allow("dev-unrelated", randomUUID(), 60_000);
    await expectAllCut([stream], disabledAt, "a disabled node");
    expect(await reachesVia(proxies.disabled)).toBe(false);
    expect(rig.agentLog).toContain("the product refuses this node");

    product.refusal = undefined;
    await until("back once the node is enabled again", () => reachesVia(proxies.disabled));
    expect(rig.agentLog).toContain("the product accepts this node again");
  });

  test("a core that is down is reported down, holding nothing; back up, it holds its credentials again", async () => {
    await until("a report of the core up", () => product.reports.at(-1)?.coreState === "up");
    await rig.node?.stop();
    await until("a report of the core down", () => {
      const report = product.reports.at(-1);
      return report?.coreState === "down" && report.credentials === 0;
    });
    await rig.startNode();
    await until("a report of the core up with its credential", () => {
      const report = product.reports.at(-1);
      return report?.coreState === "up" && report.credentials >= 1;
    });
    expect(rig.agentLog).toContain("the core answers again");
  });
});
