import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dayMs } from "../../../bff/platform/calendar";
import { apiOf, dataOf, identityOf, sessionOf, staffOf } from "../../helpers/api";
import {
  type CapturedProcess,
  type RunningServer,
  startCapturedServer,
} from "../../helpers/captured-process";
import type { SignedIn } from "../../helpers/customers";
import { tokensFor } from "../../helpers/operators";
import { getThroughProxy, reaches } from "../../helpers/proxy-tunnel";
import {
  type AgentRuntime,
  installedAgentPackage,
  spawnAgent,
  streamingTarget,
  until as waitUntil,
} from "../../helpers/real-core-rig";
import { payingCustomer } from "../../helpers/refunds";
import { remoteApp } from "../../helpers/remote-app";
import {
  type ClientOutbound,
  clientAppConfig,
  outboundFromLink,
  subscriptionLinks,
  withCredential,
} from "../../helpers/share-link-outbound";
import {
  freePort,
  type NodePorts,
  nodeConfig,
  requireV2ray,
  startV2ray,
  type V2rayProcess,
} from "../../helpers/v2ray-node";

/**
 * Access on real nodes (DESIGN §8) end to end, every part real: the product as its own process on a SQLite file,
 * Debian's V2Ray as the node's core, the agent (`bun agent/main.ts`, configured by
 * environment exactly as in production, its key made by the operator CLI), and a second
 * V2Ray as the customer's app, configured from the links the subscription URL gave. The
 * only limits asserted are the product's own (DESIGN §8): 5 s for revocation, 15 s to come
 * back after a restart; everything else is polled for, however busy the machine.
 */
const nodeName = "real-node-1";
const admin = { username: "node.admin", password: "a node admin password of 24" };
const marker = `target-${randomUUID()}`;

let directory: string;
let environment: Record<string, string>;
let origin: string;
let server: RunningServer | undefined;
let nodeKey: string;
let ports: NodePorts;
let node: V2rayProcess | undefined;
let nodeConfigPath: string;
let agent: CapturedProcess | undefined;
let app: V2rayProcess | undefined;
let target: ReturnType<typeof Bun.serve>;

type Customer = SignedIn & { accountId: string; userId: number };
let customers: { one: Customer; two: Customer; three: Customer };
/** Local HTTP proxies of the customer's app, each through one outbound built from a link. */
let proxies: { oneVless: number; oneVmess: number; two: number; three: number; madeUp: number };
/** The first customer's link, as their app keeps it. */
let oneSubscriptionUrl: string;

/** Polls until `condition` holds, with the agent's log in the message of a hang. */
const until = (what: string, condition: () => Promise<boolean> | boolean, limitMs = 180_000) =>
  waitUntil(what, condition, { limitMs, context: () => `agent: ${agentLog().slice(-4000)}` });

const agentLog = () => `${agent?.stdout() ?? ""}${agent?.stderr() ?? ""}`;
const accessLog = () => join(directory, "node-access.log");
const remote = () => remoteApp(origin);
/** The product's API through the typed client, over HTTP to the server process. */
const api = () => apiOf(remote());
const targetPort = () => target.port ?? 0;
const reachesVia = (proxyPort: number) => reaches(proxyPort, targetPort(), marker);

/** The admin's bearer header; signed in again after the demo clock moves (a token lasts 15 minutes of it). */
let adminToken: string | undefined;
async function asAdmin() {
  adminToken ??= (await tokensFor(remote(), admin.username, admin.password)).accessToken;
  return staffOf(adminToken);
}

async function panelNode() {
  const { nodes } = await dataOf(api().panel.nodes.get(await asAdmin()));
  return nodes.find((entry) => entry.name === nodeName);
}

/** Ends a process we started: SIGTERM, then SIGKILL if it lingers. */
async function end(child: Subprocess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await child.exited;
  clearTimeout(timer);
}

async function startServer() {
  server = await startCapturedServer(environment);
  origin = server.origin;
}

async function startNode() {
  const started = await startV2ray(directory, "node", nodeConfig(ports, accessLog()), ports.api);
  node = started.process;
  nodeConfigPath = started.configPath;
}

/** The agent's own package, installed as the node guide does it, run by Node 22. */
let agentRuntime: AgentRuntime;

/** The agent as its systemd unit runs it: `node main.ts` in its package, the environment of DESIGN §8. */
function startAgent() {
  agent = spawnAgent(
    {
      productUrl: origin,
      nodeKey,
      coreApiPort: ports.api,
      coreConfigPath: nodeConfigPath,
      accessLogPath: accessLog(),
      statePath: join(directory, "agent-state.json"),
    },
    agentRuntime,
  );
}

async function stopAgent() {
  await end(agent?.child);
  agent = undefined;
}

/** `npm run operator -- node <name>` while the server runs: the key is the last word of its line. */
async function makeNodeKey(): Promise<string> {
  const cli = Bun.spawn(["bun", "bff/cli.ts", "node", nodeName], {
    env: { ...process.env, ...environment, LOG_LEVEL: "error" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [output, errors, exitCode] = await Promise.all([
    new Response(cli.stdout).text(),
    new Response(cli.stderr).text(),
    cli.exited,
  ]);
  expect(exitCode, errors).toBe(0);
  const line = output.trim().split("\n").at(-1) ?? "";
  expect(line).toContain(`Node "${nodeName}" key`);
  return line.split(/\s+/).at(-1) ?? "";
}

async function connectDevice(customer: Customer) {
  const answer = await dataOf(api().profile.devices.connect.post(identityOf(customer), sessionOf(customer)));
  expect(answer.subscriptionUrl.startsWith(`${origin}/sub/`)).toBe(true);
  return answer;
}

/** The app's fetch of its subscription, as v2rayNG sends it. */
async function fetchSubscription(url: string, device: Record<string, string>) {
  const response = await fetch(url, { headers: { "user-agent": "v2rayNG/1.8.0", ...device } });
  expect(response.status).toBe(200);
  return subscriptionLinks(await response.text());
}

function outboundsOf(links: string[]) {
  const vless = links.filter((link) => link.startsWith("vless://"));
  const vmess = links.filter((link) => link.startsWith("vmess://"));
  expect(vless, links.join("\n")).toHaveLength(1);
  expect(vmess, links.join("\n")).toHaveLength(1);
  return { vless: outboundFromLink(vless[0] ?? ""), vmess: outboundFromLink(vmess[0] ?? "") };
}

async function devicesOf(customer: Customer) {
  return (await dataOf(api().profile.post(identityOf(customer), sessionOf(customer)))).devices;
}

beforeAll(async () => {
  requireV2ray();
  directory = mkdtempSync(join(tmpdir(), "kannt-real-node-"));
  agentRuntime = { kind: "node", agentDirectory: installedAgentPackage(directory) };
  ports = { api: await freePort(), vless: await freePort(), vmess: await freePort() };
  proxies = {
    oneVless: await freePort(),
    oneVmess: await freePort(),
    two: await freePort(),
    three: await freePort(),
    madeUp: await freePort(),
  };
  target = streamingTarget(marker);
  environment = {
    APP_MODE: "demo",
    DATABASE_PATH: join(directory, "data", "app.db"),
    STATIC_DIR: join(directory, "no-site"),
    // A fixed port: the agent's KANNT_URL must still name the product after its restart.
    PORT: String(await freePort()),
    // No renewals while the demo clock moves a day: the paying customer stays ACTIVE and in dunning's span.
    BILLING_INTERVAL_SECONDS: "0",
    ALTCHA_MAX_NUMBER: "5000",
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
  };
  await startServer();
  nodeKey = await makeNodeKey();
  await startNode();
  startAgent();
  await until("the node reports its two inbounds", async () => {
    const reported = await panelNode();
    return reported?.online === true && reported.inbounds.length === 2;
  });
  customers = {
    one: await payingCustomer(remote(), "real.node.one@example.com"),
    two: await payingCustomer(remote(), "real.node.two@example.com"),
    three: await payingCustomer(remote(), "real.node.three@example.com"),
  };
}, 600_000);

afterAll(async () => {
  const steps = [
    () => stopAgent(),
    () => end(node?.child),
    () => end(app?.child),
    () => end(server?.child),
    async () => target?.stop(true),
  ];
  for (const step of steps) {
    try {
      await step();
    } catch {
      // Every other process and the folder still go.
    }
  }
  if (directory) rmSync(directory, { recursive: true, force: true });
}, 120_000);

describe("access on a real V2Ray node, end to end", () => {
  test("a paying customer's connected device is named by its app's first fetch, and the app built from its link reaches the target; a made-up UUID does not", async () => {
    const { one, two, three } = customers;
    const connected = await connectDevice(one);
    oneSubscriptionUrl = connected.subscriptionUrl;
    expect((await devicesOf(one)).find((device) => device.deviceId === connected.deviceId)).toMatchObject({
      deviceName: "",
      platform: "other",
      firstActivation: null,
    });

    const links = await fetchSubscription(connected.subscriptionUrl, {
      "x-hwid": "real-node-hwid-0001",
      "x-device-os": "iOS",
      "x-device-model": "iPhone 15",
    });
    const oneOutbounds = outboundsOf(links);
    // The links name what the agent reported: the node's host and its inbounds' ports.
    expect(oneOutbounds.vless.settings.vnext[0]).toMatchObject({ address: "127.0.0.1", port: ports.vless });
    expect(oneOutbounds.vmess.settings.vnext[0]).toMatchObject({ address: "127.0.0.1", port: ports.vmess });
    const named = (await devicesOf(one)).find((device) => device.deviceId === connected.deviceId);
    expect(named).toMatchObject({ deviceName: "iPhone 15", platform: "ios" });
    expect(Number.isNaN(Date.parse(named?.firstActivation ?? ""))).toBe(false);

    const outboundOf = async (customer: Customer, key: string, model: string): Promise<ClientOutbound> => {
      const device = await connectDevice(customer);
      const fetched = await fetchSubscription(device.subscriptionUrl, {
        "x-hwid": `real-node-hwid-${key}`,
        "x-device-os": "Android 14",
        "x-device-model": model,
      });
      return outboundsOf(fetched).vless;
    };
    const twoVless = await outboundOf(two, "two", "Pixel 8");
    const threeVless = await outboundOf(three, "three", "Galaxy S24");

    ({ process: app } = await startV2ray(
      directory,
      "app",
      clientAppConfig([
        { proxyPort: proxies.oneVless, outbound: oneOutbounds.vless },
        { proxyPort: proxies.oneVmess, outbound: oneOutbounds.vmess },
        { proxyPort: proxies.two, outbound: twoVless },
        { proxyPort: proxies.three, outbound: threeVless },
        { proxyPort: proxies.madeUp, outbound: withCredential(oneOutbounds.vless, randomUUID()) },
      ]),
      proxies.madeUp,
    ));

    await until("the first customer reaches the target over VLESS", () => reachesVia(proxies.oneVless));
    await until("the first customer reaches the target over VMess", () => reachesVia(proxies.oneVmess));
    await until("the second customer reaches the target", () => reachesVia(proxies.two));
    await until("the third customer reaches the target", () => reachesVia(proxies.three));
    expect(await reachesVia(proxies.madeUp)).toBe(false);
  }, 600_000);

  test("an operator's refund ends the customer's open stream and new connections within 5 s; another customer keeps working", async () => {
    const { one } = customers;
    const stream = getThroughProxy(proxies.oneVless, targetPort(), "/stream");
    await until("the stream flows", () => stream.received().split("tick").length > 3);
    expect(await reachesVia(proxies.two)).toBe(true);

    const refund = await api().panel.refund.post({ email: one.email, uid: one.uid }, await asAdmin());
    const answeredAt = Date.now();
    expect(refund.status).toBe(200);
    expect(refund.data).toMatchObject({ Success: true, endsAccess: true });

    // Polled until it ends, or until a byte arrives past the limit (which fails at once below).
    await until("the open stream ends", () => stream.isClosed() || stream.lastDataAt() - answeredAt > 5_000);
    const closedAfterMs = Date.now() - answeredAt;
    const lastByteAfterMs = stream.lastDataAt() - answeredAt;
    console.log(
      `[access-real-node] revocation: the open stream's last byte ${lastByteAfterMs} ms and its end seen ${closedAfterMs} ms after the refund's answer`,
    );
    expect(lastByteAfterMs, "no byte on the open stream later than 5 s after the refund").toBeLessThanOrEqual(
      5_000,
    );
    expect(stream.isClosed()).toBe(true);

    // The product's limit for new connections, then one try each: no retry hides a late refusal.
    const left = answeredAt + 5_000 - Date.now();
    if (left > 0) await Bun.sleep(left);
    expect(await reachesVia(proxies.oneVless)).toBe(false);
    expect(await reachesVia(proxies.oneVmess)).toBe(false);
    expect(await reachesVia(proxies.two)).toBe(true);
    expect(await reachesVia(proxies.three)).toBe(true);

    // The app's next refresh: no servers any more, only the note.
    const refreshed = await fetch(oneSubscriptionUrl, {
      headers: { "user-agent": "v2rayNG/1.8.0" },
    });
    expect(refreshed.status).toBe(200);
    expect(subscriptionLinks(await refreshed.text()).join("\n")).not.toContain(`:${ports.vless}?`);
  }, 600_000);

  test("a restarted core, and a restarted agent, bring the paying customer back within 15 s; the refunded one stays out", async () => {
    await node?.stop();
    await startNode();
    const coreBackAt = Date.now();
    await until("the paying customer works on the restarted core", () => reachesVia(proxies.two));
    const coreRecoveryMs = Date.now() - coreBackAt;
    console.log(
      `[access-real-node] core restart: the paying customer back ${coreRecoveryMs} ms after the core listened`,
    );
    expect(coreRecoveryMs).toBeLessThanOrEqual(15_000);
    expect(agentLog()).toContain("the core restarted");
    expect(await reachesVia(proxies.oneVless)).toBe(false);

    // The agent stops: the core keeps serving without it. A core restarted meanwhile holds
    // nobody, until the agent, started again, puts its users back.
    await stopAgent();
    expect(await reachesVia(proxies.two)).toBe(true);
    await node?.stop();
    await startNode();
    expect(await reachesVia(proxies.two)).toBe(false);
    startAgent();
    const agentStartedAt = Date.now();
    await until("the paying customer works again after the agent's restart", () => reachesVia(proxies.two));
    const agentRecoveryMs = Date.now() - agentStartedAt;
    console.log(
      `[access-real-node] agent restart: the paying customer back ${agentRecoveryMs} ms after the agent was started again`,
    );
    expect(agentRecoveryMs).toBeLessThanOrEqual(15_000);
    expect(await reachesVia(proxies.oneVless)).toBe(false);
    expect(await reachesVia(proxies.three)).toBe(true);
  }, 600_000);

  test("with the product stopped the paying customer keeps connecting, and a cancelled customer's entry leaves when their time runs out", async () => {
    const { three } = customers;
    const cancelling = api().subscriptions.cancel.post(identityOf(three), sessionOf(three));
    expect((await cancelling).status).toBe(200);
    const periodEnd = Date.parse((await dataOf(cancelling)).expirationDate ?? "");
    expect(Number.isNaN(periodEnd)).toBe(false);
    await until("the node applied the cancellation", async () => (await panelNode())?.syncLagSeconds === 0);
    const versionBefore = (await panelNode())?.appliedVersion ?? 0;

    // The demo clock to 30 s before the third customer's period ends; every node gets the new times.
    const clock = api().dev.clock;
    const read = await dataOf(clock.post({ advanceDays: 0 }));
    const advance = (periodEnd - 30_000 - Date.parse(read.now)) / dayMs;
    expect(advance).toBeGreaterThan(0);
    const moving = clock.post({ advanceDays: advance });
    expect((await moving).status).toBe(200);
    const movedNow = Date.parse((await dataOf(moving)).now);
    adminToken = undefined;
    // The wall-clock moment the period ends, as the product counts it.
    const endsAt = Date.now() + (periodEnd - movedNow);
    const isInStep = async () => {
      const reported = await panelNode();
      return (reported?.appliedVersion ?? 0) > versionBefore && reported?.syncLagSeconds === 0;
    };
    await until("the node applied the new remaining times", isInStep);
    await Bun.sleep(1_000);
    expect(await isInStep()).toBe(true);
    expect(await reachesVia(proxies.three)).toBe(true);

    await server?.stop();
    server = undefined;
    expect(await reachesVia(proxies.two)).toBe(true);

    // Each try of the third customer, when it started and whether it got through.
    const tries: { at: number; isThrough: boolean }[] = [];
    await until(
      "the third customer refused after their time",
      async () => {
        const at = Date.now();
        const isThrough = await reachesVia(proxies.three);
        tries.push({ at, isThrough });
        return !isThrough;
      },
      300_000,
    );
    const refusedAt = tries.at(-1)?.at ?? 0;
    console.log(
      `[access-real-node] expiry with the product stopped: refused ${refusedAt - endsAt} ms after the period's end`,
    );
    // Never cut off early (a second's slack for the moments the two clocks were read).
    expect(refusedAt).toBeGreaterThanOrEqual(endsAt - 1_000);
    expect(tries.filter((attempt) => attempt.at < endsAt - 1_000).every((attempt) => attempt.isThrough)).toBe(
      true,
    );
    expect(await reachesVia(proxies.two)).toBe(true);
    expect(await reachesVia(proxies.oneVless)).toBe(false);
    expect(agentLog()).toContain("allow-list fetch failed");
    expect(agentLog()).toContain("credentials expired");
  }, 600_000);

  test("the panel's connection logs show the customers' connections on the node, by its name, with the client address", async () => {
    await startServer();
    const logsOf = async (customer: Customer) =>
      dataOf(api().panel.logs.post({}, { ...(await asAdmin()), query: { userId: customer.userId } }));
    type LogRow = Awaited<ReturnType<typeof logsOf>>[number];
    const isOnNode = (row: LogRow) =>
      row.serverName === nodeName && row.success && row.userIp === "127.0.0.1";
    await until("the paying customer's connections in the panel's logs", async () =>
      (await logsOf(customers.two)).some(isOnNode),
    );
    expect((await logsOf(customers.two)).find(isOnNode)).toMatchObject({
      deviceName: "Pixel 8",
      platform: "android",
    });
    const first = (await logsOf(customers.one)).find(isOnNode);
    expect(first).toMatchObject({ deviceName: "iPhone 15", platform: "ios" });
    await until("the node online again", async () => (await panelNode())?.online === true);
  }, 600_000);
});
