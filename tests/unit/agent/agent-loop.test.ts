import { randomUUID } from "node:crypto";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { Agent } from "../../../agent/agent";
import type {
  AllowListResponse,
  InboundReport,
  NodeEvents,
  NodeReport,
} from "../../../agent/contract/node-api";
import { type Logger, silentLogger } from "../../../agent/log";
import type { Endpoint } from "../../../agent/open-connections";
import { type ProductApi, ProductError } from "../../../agent/product-api";
import { saveState } from "../../../agent/state-file";
import { FakeCoreApi } from "../../helpers/fake-core-api";

/** The product as a script: answers handed to the long poll one by one, or a product that is down. */
class ScriptedProduct implements ProductApi {
  private readonly answers: AllowListResponse[] = [];
  private wake: (() => void) | undefined;
  isDown = false;
  /** Every call answered with this refusal (403, 401, 409) while set. */
  refuseWith: ProductError | undefined;
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
    if (this.refuseWith) {
      // A refused agent backs off; the test's clock is not the back-off's.
      await Bun.sleep(20);
      throw this.refuseWith;
    }
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
    if (this.refuseWith) throw this.refuseWith;
    this.reports.push(report);
  }

  async events(events: NodeEvents): Promise<void> {
    if (this.refuseWith) throw this.refuseWith;
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
  options: {
    history?: string;
    now?: () => number;
    log?: Logger;
    core?: FakeCoreApi;
    /** Connections the kernel lists besides those the log names. */
    alsoOpen?: Set<string>;
  } = {},
) {
  const core = options.core ?? new FakeCoreApi(inbounds.map((inbound) => inbound.tag));
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
    instanceId,
    coreApi: core,
    product,
    sockets: {
      close: async (endpoints, ports) => {
        if (failNextClose.count > 0) {
          failNextClose.count--;
          throw new Error("ss -K failed (1): simulated");
        }
        closed.push({ endpoints, ports });
        for (const endpoint of endpoints) closedKeys.add(`${endpoint.ip}:${endpoint.port}`);
      },
      established: async () => {
        const open = new Set<string>();
        for (const match of readFileSync(accessLog, "utf8").matchAll(/ (\d+\.\d+\.\d+\.\d+:\d+) accepted/g))
          if (match[1] && !closedKeys.has(match[1])) open.add(match[1]);
        for (const key of options.alsoOpen ?? []) if (!closedKeys.has(key)) open.add(key);
        return open;
      },
    },
    log: options.log ?? silentLogger,
    now: options.now,
  });
  running.push(agent);
  return { agent, core, closed, accessLog, closedKeys, statePath };
}

const instanceId = "5f0c7e1e-8d7b-4c55-9a41-0b6f6f1f2a10";
/** The next closes fail, as `ss -K` does on a node out of memory or with a timed-out run. */
const failNextClose = { count: 0 };

/** Entries outlive any slow run: none may expire mid-test. */
const hour = 60 * 60_000;

const line = (tag: string, endpoint: string) =>
  `2026/11/26 01:08:00 ${endpoint} accepted tcp:example.com:443 [direct] email: ${tag}\n`;

/**
 * The product's first list, one entry per device, and a connection of each in the access
 * log: answered once every device is on the core and every endpoint is known. `alsoLogged`
 * are lines written with them (clients that are no device, for one). Answers the ids.
 */
async function connectDevices(
  { agent, core, accessLog }: ReturnType<typeof startAgent>,
  product: ScriptedProduct,
  endpoints: Record<string, string>,
  alsoLogged = "",
): Promise<Record<string, string>> {
  const ids = Object.fromEntries(Object.keys(endpoints).map((tag) => [tag, randomUUID()]));
  product.answer({
    version: 1,
    full: true,
    entries: Object.entries(ids).map(([tag, id]) => ({ tag, id, remainingMs: hour })),
    removed: [],
  });
  const count = Object.keys(endpoints).length;
  await until("every device on the core", () => Object.keys(core.users("kannt-vless")).length === count);
  appendFileSync(
    accessLog,
    Object.entries(endpoints)
      .map(([tag, endpoint]) => line(tag, endpoint))
      .join("") + alsoLogged,
  );
  await until("the endpoints are known", () => agent.trackedEndpoints === count);
  return ids;
}

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
    const started = startAgent(product);
    const { agent, core, closed, accessLog } = started;
    await agent.start();
    await connectDevices(
      started,
      product,
      { "dev-a": "203.0.113.7:40001", "dev-b": "203.0.113.8:40002" },
      line("operator@example.com", "192.0.2.1:5000"),
    );

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
      coreState: "up",
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
    const started = startAgent(product);
    const { agent, core, closed, accessLog } = started;
    await agent.start();
    await connectDevices(started, product, { "dev-a": "203.0.113.7:40001", "dev-b": "203.0.113.8:40002" });

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

  test("after a restart every open connection is learned again from the log, behind any number of lines, and closed when its device leaves; none is reported again", async () => {
    const statePath = join(directory, "restarted.json");
    await saveState(statePath, {
      version: 4,
      entries: [
        ["dev-stream", { id: randomUUID(), expiresAt: Date.now() + hour }],
        ["dev-b", { id: randomUUID(), expiresAt: Date.now() + hour }],
      ],
    });
    // The stream's line first, then 1,200 more of its connections and 40,000 lines of others.
    let history = line("dev-stream", "203.0.113.7:30000");
    for (let port = 30001; port <= 31200; port++) history += line("dev-stream", `203.0.113.7:${port}`);
    for (let index = 0; index < 40_000; index++)
      history += line(`dev-other-${index % 50}`, `198.51.100.${index % 200}:${20000 + (index % 9000)}`);
    history += line("dev-b", "203.0.113.8:40002");
    const product = new ScriptedProduct();
    const { agent, closed, closedKeys } = startAgent(product, statePath, { history });
    await agent.start();
    // The others' devices are not on the list: their connections end at start.
    const closedAtStart = closed.flatMap((call) => call.endpoints).length;
    expect(closedAtStart).toBeGreaterThan(0);
    expect(closedKeys.has("203.0.113.7:30000")).toBe(false);
    expect(agent.trackedEndpoints).toBe(1_202);

    product.answer({ version: 5, full: false, entries: [], removed: ["dev-stream"] });
    await until("every connection of dev-stream is closed", () => closedKeys.has("203.0.113.7:30000"));
    const streamClosed = closed
      .slice(1)
      .flatMap((call) => call.endpoints)
      .filter((endpoint) => endpoint.ip === "203.0.113.7");
    expect(streamClosed).toHaveLength(1_201);
    expect(closedKeys.has("203.0.113.8:40002")).toBe(false);
    await agent.stop();
    running.splice(running.indexOf(agent), 1);
    expect(product.eventBatches.flatMap((batch) => batch.connections)).toEqual([]);
  });

  test("at start a connection no log line names, or whose device may not connect, is closed; a paying one's is kept", async () => {
    const statePath = join(directory, "unnamed.json");
    await saveState(statePath, {
      version: 2,
      entries: [["dev-paying", { id: randomUUID(), expiresAt: Date.now() + hour }]],
    });
    const history = line("dev-paying", "203.0.113.7:40001") + line("dev-refunded", "203.0.113.9:40003");
    const product = new ScriptedProduct();
    // A connection whose line went with a rotated log: listed by the kernel, named by nobody.
    const alsoOpen = new Set(["192.0.2.44:51000"]);
    const { agent, closedKeys } = startAgent(product, statePath, { history, alsoOpen });
    await agent.start();
    expect([...closedKeys].sort()).toEqual(["192.0.2.44:51000", "203.0.113.9:40003"]);
  });

  test("a connection open at a revocation that no line names (the core dropped its line) is closed a moment later; one named late, or opened after, is not", async () => {
    const alsoOpen = new Set<string>();
    const product = new ScriptedProduct();
    const started = startAgent(product, undefined, { alsoOpen });
    const { agent, closedKeys, accessLog } = started;
    await agent.start();
    await connectDevices(started, product, { "dev-a": "203.0.113.7:40001", "dev-b": "203.0.113.8:40002" });
    // Accepted by the core, never logged: it may be dev-a's.
    alsoOpen.add("192.0.2.50:5000");
    // Accepted just before the revocation; its line is written as it happens.
    alsoOpen.add("192.0.2.51:5001");

    product.answer({ version: 2, full: false, entries: [], removed: ["dev-a"] });
    appendFileSync(accessLog, line("dev-b", "192.0.2.51:5001"));
    await until("dev-a's known connection is closed", () => closedKeys.has("203.0.113.7:40001"));
    // Opened after the removal: the core refuses dev-a's credential by then.
    alsoOpen.add("192.0.2.52:5002");
    await until("the unnamed connection is closed", () => closedKeys.has("192.0.2.50:5000"));
    expect(closedKeys.has("192.0.2.51:5001")).toBe(false);
    expect(closedKeys.has("192.0.2.52:5002")).toBe(false);
    expect(closedKeys.has("203.0.113.8:40002")).toBe(false);
  });

  test("a close that did not take (ss failed) is made again a moment later", async () => {
    const product = new ScriptedProduct();
    const started = startAgent(product);
    const { closed, closedKeys } = started;
    await started.agent.start();
    await connectDevices(started, product, { "dev-a": "203.0.113.7:40001" });
    failNextClose.count = 1;
    product.answer({ version: 2, full: false, entries: [], removed: ["dev-a"] });
    await until("closed on the second try", () => closedKeys.has("203.0.113.7:40001"));
    expect(closed.flatMap((call) => call.endpoints.map((endpoint) => endpoint.port))).toEqual([40001]);
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

describe("a node the product refuses", () => {
  const refusal = (status: number, code: string) =>
    new ProductError(`GET /api/nodes/allowlist answered ${status}`, status, code);

  async function paying(product: ScriptedProduct, options: Parameters<typeof startAgent>[2] = {}) {
    const started = startAgent(product, undefined, options);
    await started.agent.start();
    product.answer({
      version: 3,
      full: true,
      entries: [{ tag: "dev-a", id: randomUUID(), remainingMs: 24 * hour }],
      removed: [],
    });
    await until("on the core", () => "dev-a" in started.core.users("kannt-vless"));
    appendFileSync(started.accessLog, line("dev-a", "203.0.113.7:40001"));
    await until("its connection is known", () => started.agent.trackedEndpoints === 1);
    return started;
  }

  test("a disabled node (403) empties its core at once, open connections included, and keeps it empty across a restart", async () => {
    const product = new ScriptedProduct();
    const { core, closedKeys, statePath } = await paying(product);
    product.refuseWith = refusal(403, "node_disabled");
    // The waiting long poll ends; the next one is refused.
    product.answer({ version: 3, full: false, entries: [], removed: [] });
    await until("the core is empty", () => Object.keys(core.users("kannt-vless")).length === 0);
    expect(core.users("kannt-vmess")).toEqual({});
    await until("the open connection is closed", () => closedKeys.has("203.0.113.7:40001"));
    // The refusal is saved first, the emptied list a moment later (a restart in between
    // empties the core again from the saved refusal): wait for the second write.
    const savedState = () =>
      JSON.parse(readFileSync(statePath, "utf8")) as { entries: unknown[]; refusal?: { kind: string } };
    await until("the empty list is saved", () => {
      const state = savedState();
      return state.refusal?.kind === "disabled" && state.entries.length === 0;
    });
    const saved = savedState();
    expect(saved).toMatchObject({ version: 0, entries: [], instanceId, refusal: { kind: "disabled" } });
  });

  test("a refused key (401) keeps serving what the core holds for an hour, then empties it; a restart does not start the hour again", async () => {
    let clock = Date.now();
    const product = new ScriptedProduct();
    const { agent, core, statePath } = await paying(product, { now: () => clock });
    product.refuseWith = refusal(401, "node_key_rotated");
    product.answer({ version: 3, full: false, entries: [], removed: [] });
    await until("the refusal is saved", () => readFileSync(statePath, "utf8").includes('"kind":"key"'));
    clock += 59 * 60_000;
    await Bun.sleep(1_100);
    expect(core.users("kannt-vless")).toHaveProperty("dev-a");

    // Restarted 59 minutes in: the saved refusal keeps its start.
    await agent.stop();
    running.splice(running.indexOf(agent), 1);
    const restarted = startAgent(product, statePath, { now: () => clock, core });
    await restarted.agent.start();
    expect(core.users("kannt-vless")).toHaveProperty("dev-a");
    clock += 61_000;
    await until(
      "the core is empty after the hour",
      () => Object.keys(core.users("kannt-vless")).length === 0,
    );
  });

  test("when the product takes the node again, the whole list is asked for and everyone is back", async () => {
    const product = new ScriptedProduct();
    const { core } = await paying(product);
    product.refuseWith = refusal(403, "node_disabled");
    product.answer({ version: 3, full: false, entries: [], removed: [] });
    await until("the core is empty", () => Object.keys(core.users("kannt-vless")).length === 0);
    const id = randomUUID();
    product.fullList = {
      version: 7,
      full: true,
      entries: [{ tag: "dev-a", id, remainingMs: hour }],
      removed: [],
    };
    product.refuseWith = undefined;
    await until("back on the core", () => core.users("kannt-vless")["dev-a"] === id);
  });

  test("a product that cannot be reached is no refusal: the core keeps what it holds", async () => {
    let clock = Date.now();
    const product = new ScriptedProduct();
    const { core } = await paying(product, { now: () => clock });
    product.isDown = true;
    product.answer({ version: 3, full: false, entries: [], removed: [] });
    clock += 2 * hour;
    await Bun.sleep(1_100);
    expect(core.users("kannt-vless")).toHaveProperty("dev-a");
  });
});

describe("what the node reports is the core's state", () => {
  test("a core that is down is reported down, holding nothing, and the log says so, then that it answers again", async () => {
    const logged: string[] = [];
    const log: Logger = (_level, message) => void logged.push(message);
    const product = new ScriptedProduct();
    const { agent, core } = startAgent(product, undefined, { log });
    await agent.start();
    product.answer({
      version: 1,
      full: true,
      entries: [{ tag: "dev-a", id: randomUUID(), remainingMs: hour }],
      removed: [],
    });
    await until("held", () => agent.nodeReport().credentials === 1);
    expect(agent.nodeReport().coreState).toBe("up");

    core.isDown = true;
    await until("reported down", () => product.reports.at(-1)?.coreState === "down");
    expect(product.reports.at(-1)?.credentials).toBe(0);
    expect(logged).toContain("the core's API does not answer; the node reports its core down");

    core.isDown = false;
    core.restart();
    await until("reported up again, holding the credential", () => {
      const report = product.reports.at(-1);
      return report?.coreState === "up" && report.credentials === 1;
    });
    expect(logged).toContain("the core answers again");
  });

  test("a change the core refused is not counted as held, and the log does not call it applied", async () => {
    const logged: string[] = [];
    const log: Logger = (_level, message) => void logged.push(message);
    const product = new ScriptedProduct();
    const { agent, core } = startAgent(product, undefined, { log });
    await agent.start();
    core.failNextAddOn.add("kannt-vmess");
    product.answer({
      version: 1,
      full: true,
      entries: [{ tag: "dev-a", id: randomUUID(), remainingMs: hour }],
      removed: [],
    });
    await until("the change is received", () =>
      logged.includes("allow-list received; the core has not taken all of it yet (retrying)"),
    );
    expect(logged).not.toContain("allow-list applied");
    // Held once the retry (each second) got it onto every inbound.
    await until("held after the retry", () => agent.nodeReport().credentials === 1);
  });

  test("an outage of the product is logged, and so is its end", async () => {
    const logged: string[] = [];
    const log: Logger = (_level, message) => void logged.push(message);
    const product = new ScriptedProduct();
    product.isDown = true;
    const { agent } = startAgent(product, undefined, { log });
    await agent.start();
    await until("the failure is logged", () =>
      logged.includes("allow-list fetch failed; access stays as it is"),
    );
    product.isDown = false;
    product.answer({ version: 1, full: true, entries: [], removed: [] });
    await until("the recovery is logged", () => logged.includes("the product answers again"));
  });
});
