import { randomUUID } from "node:crypto";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { Agent } from "../../../agent/agent";
import { silentLogger } from "../../../agent/log";
import type { Endpoint } from "../../../agent/open-connections";
import { type ProductApi, ProductError } from "../../../agent/product-api";
import { saveState } from "../../../agent/state-file";
import type {
  AllowListResponse,
  InboundReport,
  NodeEvents,
  NodeReport,
} from "../../../bff/modules/access/node-wire";
import { FakeCoreApi } from "../../helpers/fake-core-api";

/** The product as a script: answers handed to the long poll one by one, or a product that is down. */
class ScriptedProduct implements ProductApi {
  private readonly answers: AllowListResponse[] = [];
  private wake: (() => void) | undefined;
  isDown = false;
  allowListCalls = 0;
  readonly asked: number[] = [];
  /** What a request for the whole list (since 0) gets at once, as the product answers it. */
  fullList: AllowListResponse | undefined;
  readonly reports: NodeReport[] = [];
  readonly eventBatches: NodeEvents[] = [];

  answer(answer: AllowListResponse): void {
    this.answers.push(answer);
    this.wake?.();
  }

  async allowList(since: number, _wait: number, signal?: AbortSignal): Promise<AllowListResponse> {
    this.allowListCalls++;
    this.asked.push(since);
    if (this.isDown) throw new ProductError("fetch failed: connect ECONNREFUSED");
    if (since === 0 && this.fullList) return this.fullList;
    while (this.answers.length === 0) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        signal?.addEventListener("abort", () => resolve());
      });
      if (signal?.aborted) throw new Error("stopped");
    }
    return this.answers.shift() as AllowListResponse;
  }

  async report(report: NodeReport): Promise<void> {
    if (this.isDown) throw new ProductError("fetch failed");
    this.reports.push(report);
  }

  async events(events: NodeEvents): Promise<void> {
    this.eventBatches.push(events);
  }
}

const inbounds: InboundReport[] = [
  { tag: "kannt-vless", protocol: "vless", port: 443, network: "tcp", security: "none" },
  { tag: "kannt-vmess", protocol: "vmess", port: 8443, network: "tcp", security: "none" },
];

async function until(what: string, condition: () => boolean): Promise<void> {
  const startedAt = Date.now();
  while (!condition()) {
    if (Date.now() - startedAt > 60_000) throw new Error(`still waiting for: ${what}`);
    await Bun.sleep(20);
  }
}

const directory = mkdtempSync(join(tmpdir(), "kannt-agent-loop-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const running: Agent[] = [];
afterEach(async () => {
  for (const agent of running.splice(0)) await agent.stop();
});

let runs = 0;
function startAgent(
  product: ScriptedProduct,
  statePath = join(directory, `state-${++runs}.json`),
  options: { history?: string; now?: () => number } = {},
) {
  const core = new FakeCoreApi(inbounds.map((inbound) => inbound.tag));
  const closed: { endpoints: Endpoint[]; ports: number[] }[] = [];
  const accessLog = join(directory, `access-${runs}.log`);
  writeFileSync(accessLog, options.history ?? "");
  // Every logged client stays connected until the agent closes it: a prune on a slow run
  // (every 30 s) must not forget endpoints the test still expects to be closed.
  const closedKeys = new Set<string>();
  const agent = new Agent({
    core: "v2ray",
    coreVersion: "4.34.0",
    nodeHost: "vpn.example",
    inbounds,
    accessLogPath: accessLog,
    statePath,
    coreApi: core,
    product,
    sockets: {
      close: async (endpoints, ports) => {
        closed.push({ endpoints, ports });
        for (const endpoint of endpoints) closedKeys.add(`${endpoint.ip}:${endpoint.port}`);
      },
      established: async () => {
        const open = new Set<string>();
        for (const match of readFileSync(accessLog, "utf8").matchAll(/ (\d+\.\d+\.\d+\.\d+:\d+) accepted/g))
          if (match[1] && !closedKeys.has(match[1])) open.add(match[1]);
        return open;
      },
    },
    log: silentLogger,
    now: options.now,
  });
  running.push(agent);
  return { agent, core, closed, accessLog };
}

/** Entries outlive any slow run: none may expire mid-test. */
const hour = 60 * 60_000;

const line = (tag: string, endpoint: string) =>
  `2026/11/26 01:08:00 ${endpoint} accepted tcp:example.com:443 [direct] email: ${tag}\n`;

describe("the agent's loops", () => {
  test("with the product unreachable it serves its saved list, keeps retrying and removes nobody", async () => {
    const statePath = join(directory, "saved.json");
    const id = randomUUID();
    await saveState(statePath, {
      version: 4,
      entries: [["dev-paying", { id, expiresAt: Date.now() + 60 * 60_000 }]],
    });
    const product = new ScriptedProduct();
    product.isDown = true;
    const { agent, core } = startAgent(product, statePath);
    await agent.start();
    // Pushed before the product was asked anything.
    expect(core.users("kannt-vless")).toEqual({ "dev-paying": id });

    await until("a few failed fetches (back-off 1 s, 2 s)", () => product.allowListCalls >= 2);
    expect(core.users("kannt-vless")).toEqual({ "dev-paying": id });
    expect(core.users("kannt-vmess")).toEqual({ "dev-paying": id });
    expect(agent.nodeReport()).toMatchObject({ appliedVersion: 4, credentials: 1 });
  });

  test("a revoked device's logged connections are closed, a line logged just after included; others' are not", async () => {
    const product = new ScriptedProduct();
    const { agent, core, closed, accessLog } = startAgent(product);
    await agent.start();
    product.answer({
      version: 1,
      full: true,
      entries: [
        { tag: "dev-a", id: randomUUID(), remainingMs: hour },
        { tag: "dev-b", id: randomUUID(), remainingMs: hour },
      ],
      removed: [],
    });
    await until("both on the core", () => Object.keys(core.users("kannt-vless")).length === 2);

    appendFileSync(accessLog, line("dev-a", "203.0.113.7:40001") + line("dev-b", "203.0.113.8:40002"));
    appendFileSync(accessLog, line("operator@example.com", "192.0.2.1:5000"));
    await until("the endpoints are known", () => agent.trackedEndpoints === 2);

    product.answer({ version: 2, full: false, entries: [], removed: ["dev-a"] });
    await until("dev-a's socket is closed", () => closed.length === 1);
    expect(closed[0]).toEqual({
      endpoints: [{ ip: "203.0.113.7", port: 40001, inboundPort: undefined, seenAt: expect.any(Number) }],
      ports: [443, 8443],
    });
    expect(core.users("kannt-vless")).not.toHaveProperty("dev-a");

    appendFileSync(accessLog, line("dev-a", "203.0.113.7:40009"));
    await until("the late connection is closed too", () => closed.length === 2);
    expect(closed[1]?.endpoints.map((endpoint) => endpoint.port)).toEqual([40009]);
    expect(agent.trackedEndpoints).toBe(1);
  });

  test("reports at start and after each applied change say what the core holds", async () => {
    const product = new ScriptedProduct();
    const { agent } = startAgent(product);
    await agent.start();
    await until("the start report", () => product.reports.length >= 1);
    expect(product.reports[0]).toEqual({
      core: "v2ray",
      coreVersion: "4.34.0",
      host: "vpn.example",
      inbounds,
      appliedVersion: 0,
      credentials: 0,
    });
    product.answer({
      version: 3,
      full: true,
      entries: [{ tag: "dev-a", id: randomUUID(), remainingMs: hour }],
      removed: [],
    });
    await until("a report of version 3", () => product.reports.some((report) => report.appliedVersion === 3));
    expect(product.reports.at(-1)).toMatchObject({ appliedVersion: 3, credentials: 1 });
  });

  test("a core restart is noticed within seconds and every credential goes back", async () => {
    const product = new ScriptedProduct();
    const { agent, core } = startAgent(product);
    await agent.start();
    const id = randomUUID();
    product.answer({
      version: 1,
      full: true,
      entries: [{ tag: "dev-a", id, remainingMs: hour }],
      removed: [],
    });
    await until("on the core", () => core.users("kannt-vmess")["dev-a"] === id);
    await until("the watch has seen the core running", () => core.sysStatsCalls >= 1);
    core.restart();
    await until("back after the restart", () => core.users("kannt-vmess")["dev-a"] === id);
    expect(core.users("kannt-vless")["dev-a"]).toBe(id);
  });
  test("a device back on the core (re-added, or a new link) keeps its fresh connections: the late-line window ends", async () => {
    const product = new ScriptedProduct();
    const { agent, core, closed, accessLog } = startAgent(product);
    await agent.start();
    const firstId = randomUUID();
    product.answer({
      version: 1,
      full: true,
      entries: [
        { tag: "dev-a", id: firstId, remainingMs: hour },
        { tag: "dev-b", id: randomUUID(), remainingMs: hour },
      ],
      removed: [],
    });
    await until("both on the core", () => Object.keys(core.users("kannt-vless")).length === 2);
    appendFileSync(accessLog, line("dev-a", "203.0.113.7:40001") + line("dev-b", "203.0.113.8:40002"));
    await until("the endpoints are known", () => agent.trackedEndpoints === 2);

    product.answer({ version: 2, full: false, entries: [], removed: ["dev-a"] });
    await until("dev-a's socket is closed", () => closed.length === 1);
    const secondId = randomUUID();
    product.answer({
      version: 3,
      full: false,
      entries: [{ tag: "dev-a", id: secondId, remainingMs: hour }],
      removed: [],
    });
    await until("dev-a is back", () => core.users("kannt-vless")["dev-a"] === secondId);

    appendFileSync(accessLog, line("dev-a", "203.0.113.7:40003") + line("dev-b", "203.0.113.8:40004"));
    await until("both lines are read", () => agent.trackedEndpoints === 3);
    expect(closed).toHaveLength(1);

    // A new link: the old credential's connections end, the new one's are left alone.
    const thirdId = randomUUID();
    product.answer({
      version: 4,
      full: false,
      entries: [{ tag: "dev-a", id: thirdId, remainingMs: hour }],
      removed: [],
    });
    await until("the old link's socket is closed", () => closed.length === 2);
    expect(closed[1]?.endpoints.map((endpoint) => endpoint.port)).toEqual([40003]);
    await until("the new link is on the core", () => core.users("kannt-vless")["dev-a"] === thirdId);
    appendFileSync(accessLog, line("dev-a", "203.0.113.7:40005") + line("dev-b", "203.0.113.8:40006"));
    await until("both lines are read", () => agent.trackedEndpoints === 4);
    expect(closed).toHaveLength(2);
  });

  test("after a restart the connections logged before it are known, and closed when their device leaves; they are not reported again", async () => {
    const statePath = join(directory, "restarted.json");
    await saveState(statePath, {
      version: 4,
      entries: [
        ["dev-a", { id: randomUUID(), expiresAt: Date.now() + hour }],
        ["dev-b", { id: randomUUID(), expiresAt: Date.now() + hour }],
      ],
    });
    const history =
      line("dev-a", "203.0.113.7:40001") +
      line("operator@example.com", "192.0.2.1:5000") +
      line("dev-b", "203.0.113.8:40002");
    const product = new ScriptedProduct();
    const { agent, closed } = startAgent(product, statePath, { history });
    await agent.start();
    expect(agent.trackedEndpoints).toBe(2);

    product.answer({ version: 5, full: false, entries: [], removed: ["dev-a"] });
    await until("dev-a's connection from before the restart is closed", () => closed.length === 1);
    expect(closed[0]?.endpoints).toEqual([
      { ip: "203.0.113.7", port: 40001, inboundPort: undefined, seenAt: expect.any(Number) },
    ]);
    await agent.stop();
    running.splice(running.indexOf(agent), 1);
    expect(product.eventBatches.flatMap((batch) => batch.connections)).toEqual([]);
  });

  test("a device's many requests from one address are one connection event per 10 minutes", async () => {
    let clock = Date.now();
    const product = new ScriptedProduct();
    const { agent, core, accessLog } = startAgent(product, undefined, { now: () => clock });
    await agent.start();
    product.answer({
      version: 1,
      full: true,
      entries: [{ tag: "dev-a", id: randomUUID(), remainingMs: 24 * hour }],
      removed: [],
    });
    await until("on the core", () => "dev-a" in core.users("kannt-vless"));
    appendFileSync(
      accessLog,
      line("dev-a", "203.0.113.7:40001") +
        line("dev-a", "203.0.113.7:40002") +
        line("dev-a", "203.0.113.7:40003") +
        line("dev-a", "198.51.100.9:50000"),
    );
    await until("the lines are read", () => agent.trackedEndpoints === 4);
    clock += 9 * 60_000;
    appendFileSync(accessLog, line("dev-a", "203.0.113.7:40004"));
    await until("the line is read", () => agent.trackedEndpoints === 5);
    clock += 2 * 60_000;
    appendFileSync(accessLog, line("dev-a", "203.0.113.7:40005"));
    await until("the line is read", () => agent.trackedEndpoints === 6);
    await agent.stop();
    running.splice(running.indexOf(agent), 1);
    const events = product.eventBatches.flatMap((batch) => batch.connections);
    expect(events.map((event) => event.clientIp)).toEqual(["203.0.113.7", "198.51.100.9", "203.0.113.7"]);
  });

  test("the whole list is asked for every 15 minutes: an entry expired by the node's clock comes back", async () => {
    let clock = Date.now();
    const product = new ScriptedProduct();
    const { agent, core } = startAgent(product, undefined, { now: () => clock });
    await agent.start();
    const id = randomUUID();
    product.answer({
      version: 1,
      full: true,
      entries: [{ tag: "dev-a", id, remainingMs: 20 * 60_000 }],
      removed: [],
    });
    await until("on the core", () => core.users("kannt-vless")["dev-a"] === id);
    // Its next long poll (a delta from version 1) is waiting before the clock moves: were it
    // sent after, it would be the due full resync, and the answer below would end it.
    await until("its long poll waiting", () => product.asked.at(-1) === 1);
    const askedBefore = product.asked.length;

    // The node's clock runs ahead: the entry is over by it, not by the product.
    clock += 21 * 60_000;
    await until("expired by the node's clock", () => !("dev-a" in core.users("kannt-vless")));
    product.fullList = {
      version: 1,
      full: true,
      entries: [{ tag: "dev-a", id, remainingMs: 19 * 60_000 }],
      removed: [],
    };
    // The waiting long poll ends with nothing new, as the product's does after its wait.
    product.answer({ version: 1, full: false, entries: [], removed: [] });
    await until("back after the full resync", () => core.users("kannt-vless")["dev-a"] === id);
    expect(product.asked.slice(askedBefore)).toContain(0);
  });
});
