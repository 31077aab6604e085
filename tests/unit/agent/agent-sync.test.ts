import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { AccessSync } from "../../../agent/access-sync";
import type { AllowEntry, InboundReport } from "../../../agent/contract/node-api";
import { CoreWatch } from "../../../agent/core-watch";
import { silentLogger } from "../../../agent/log";
import { FakeCoreApi } from "../../helpers/fake-core-api";

const inbounds: InboundReport[] = [
  {
    tag: "kannt-reality",
    protocol: "vless",
    port: 443,
    network: "tcp",
    security: "reality",
    flow: "xtls-rprx-vision",
  },
  { tag: "kannt-vmess", protocol: "vmess", port: 8443, network: "ws", security: "tls" },
];

const directory = mkdtempSync(join(tmpdir(), "kannt-agent-sync-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let files = 0;
function setup(
  core = new FakeCoreApi(inbounds.map((inbound) => inbound.tag)),
  statePath = join(directory, `state-${++files}.json`),
) {
  const clock = { now: 1_000_000 };
  const removed: string[] = [];
  const sync = new AccessSync({
    api: core,
    inbounds,
    statePath,
    now: () => clock.now,
    log: silentLogger,
    onRemoved: (tag) => removed.push(tag),
    identity: () => ({ instanceId: "5f0c7e1e-8d7b-4c55-9a41-0b6f6f1f2a10" }),
  });
  return { core, sync, clock, removed, statePath };
}

const day = 24 * 60 * 60 * 1000;
const entry = (tag: string, id = randomUUID(), remainingMs = day): AllowEntry => ({ tag, id, remainingMs });
const full = (version: number, ...entries: AllowEntry[]) => ({ version, full: true, entries, removed: [] });
const delta = (version: number, entries: AllowEntry[], removed: string[] = []) => ({
  version,
  full: false,
  entries,
  removed,
});

describe("applying the allow-list to the core", () => {
  test("every managed inbound gets every credential: VLESS with the inbound's flow, VMess with alterId 0", async () => {
    const { core, sync } = setup();
    const a = entry("dev-a");
    await sync.applyAnswer(full(1, a));
    expect(core.inbounds.get("kannt-reality")?.get("dev-a")).toEqual({
      email: "dev-a",
      level: 0,
      account: { protocol: "vless", id: a.id, flow: "xtls-rprx-vision" },
    });
    expect(core.inbounds.get("kannt-vmess")?.get("dev-a")).toEqual({
      email: "dev-a",
      level: 0,
      account: { protocol: "vmess", id: a.id },
    });
    expect(sync.appliedVersion).toBe(1);
  });

  test("a full list is diffed against what the core holds: extras removed, missing added, a changed id replaced", async () => {
    const { core, sync, removed } = setup();
    const [a, b, c] = [entry("dev-a"), entry("dev-b"), entry("dev-c")];
    await sync.applyAnswer(full(1, a, b));
    core.calls.length = 0;

    const rotated = entry("dev-b");
    await sync.applyAnswer(full(9, rotated, c));
    for (const inbound of inbounds)
      expect(core.users(inbound.tag)).toEqual({ "dev-b": rotated.id, "dev-c": c.id });
    // The old credential's connections end too: a rotation drops the old link.
    expect(removed.sort()).toEqual(["dev-a", "dev-b"]);
    expect(core.calls).not.toContain("add kannt-reality dev-a");
    expect(sync.appliedVersion).toBe(9);
  });

  test("a delta costs its own size: only its tags reach the core", async () => {
    const { core, sync } = setup();
    await sync.applyAnswer(full(1, ...Array.from({ length: 500 }, (_, index) => entry(`dev-${index}`))));
    core.calls.length = 0;

    const fresh = entry("dev-new");
    await sync.applyAnswer(delta(2, [fresh], ["dev-7"]));
    expect(core.calls.sort()).toEqual([
      "add kannt-reality dev-new",
      "add kannt-vmess dev-new",
      "remove kannt-reality dev-7",
      "remove kannt-vmess dev-7",
    ]);
    expect(Object.keys(core.users("kannt-vmess"))).toHaveLength(500);
  });

  test("an entry whose time is already over is a removal, not an addition", async () => {
    const { core, sync } = setup();
    await sync.applyAnswer(full(1, entry("dev-a")));
    await sync.applyAnswer(delta(2, [entry("dev-a", randomUUID(), 0)]));
    expect(core.users("kannt-reality")).toEqual({});
  });

  test("the core's 'already exists' and 'not found' answers count as done", async () => {
    const { core, sync } = setup();
    const a = entry("dev-a");
    for (const inbound of inbounds)
      await core.addUser(inbound.tag, { email: "dev-a", level: 0, account: { protocol: "vmess", id: a.id } });
    await sync.applyAnswer(full(3, a));
    expect(sync.users.isInStep).toBe(true);
    expect(sync.appliedVersion).toBe(3);
    await core.removeUser("kannt-vmess", "dev-a");
    await sync.applyAnswer(delta(4, [], ["dev-a"]));
    expect(sync.users.isInStep).toBe(true);
    expect(core.users("kannt-reality")).toEqual({});
  });

  test("a change the core refused is retried; the version counts as applied only once all of it is in", async () => {
    const { core, sync } = setup();
    await sync.applyAnswer(full(1, entry("dev-a")));
    core.failNextAddOn.add("kannt-vmess");
    const b = entry("dev-b");
    await sync.applyAnswer(delta(2, [b]));
    expect(core.users("kannt-vmess")).not.toHaveProperty("dev-b");
    expect(sync.appliedVersion).toBe(1);

    await sync.sweep();
    expect(core.users("kannt-vmess")).toHaveProperty("dev-b", b.id);
    expect(sync.appliedVersion).toBe(2);
  });

  test("a credential that reached only some inbounds is still removed from them when revoked before the retry", async () => {
    const { core, sync } = setup();
    core.failNextAddOn.add("kannt-vmess");
    await sync.applyAnswer(full(1, entry("dev-a")));
    expect(core.users("kannt-reality")).toHaveProperty("dev-a");
    await sync.applyAnswer(delta(2, [], ["dev-a"]));
    expect(core.users("kannt-reality")).toEqual({});
    expect(core.users("kannt-vmess")).toEqual({});
  });

  test("a core that is down keeps the list: nothing is dropped, and it all goes in once the core answers", async () => {
    const { core, sync } = setup();
    core.isDown = true;
    const a = entry("dev-a");
    await sync.applyAnswer(full(1, a));
    expect(sync.allowList.entries.has("dev-a")).toBe(true);
    core.isDown = false;
    await sync.sweep();
    expect(core.users("kannt-reality")).toEqual({ "dev-a": a.id });
  });
});

describe("a core that does not answer", () => {
  test("costs a handful of calls per pass, not one per credential", async () => {
    const { core, sync } = setup();
    core.isDown = true;
    await sync.applyAnswer(full(1, ...Array.from({ length: 500 }, (_, index) => entry(`dev-${index}`))));
    expect(core.calls.length).toBeLessThanOrEqual(32);
    core.isDown = false;
    await sync.sweep();
    expect(Object.keys(core.users("kannt-vmess"))).toHaveLength(500);
  });

  test("a removal made while its API failed is made again when it answers, restarted or not", async () => {
    const { core, sync } = setup();
    await sync.applyAnswer(full(1, entry("dev-a"), entry("dev-b")));
    core.isDown = true;
    await sync.applyAnswer(delta(2, [], ["dev-a"]));
    core.isDown = false;
    // The API answered again: the agent cannot tell a restart from a hiccup, so it acts for both.
    await sync.coreRestarted();
    for (const inbound of inbounds) expect(Object.keys(core.users(inbound.tag))).toEqual(["dev-b"]);
  });
});

describe("expiry by the agent's own clock", () => {
  test("an entry leaves when its remaining time runs out, not a millisecond before, on every inbound", async () => {
    const { core, sync, clock, removed } = setup();
    await sync.applyAnswer(full(1, entry("dev-a", randomUUID(), 5_000), entry("dev-b")));
    clock.now += 4_999;
    await sync.sweep();
    expect(core.users("kannt-vmess")).toHaveProperty("dev-a");
    clock.now += 1;
    await sync.sweep();
    for (const inbound of inbounds) expect(Object.keys(core.users(inbound.tag))).toEqual(["dev-b"]);
    expect(removed).toEqual(["dev-a"]);
  });

  test("a later answer from the product may move the end; the agent's clock alone never does", async () => {
    const { sync, clock } = setup();
    await sync.applyAnswer(full(1, entry("dev-a", "11111111-1111-4111-8111-111111111111", 5_000)));
    const end = sync.allowList.entries.get("dev-a")?.expiresAt;
    clock.now += 3_000;
    await sync.sweep();
    expect(sync.allowList.entries.get("dev-a")?.expiresAt).toBe(end);
  });
});

describe("AGENT_STATE", () => {
  test("is replaced whole after each apply, readable by its owner only", async () => {
    const { sync, statePath, clock } = setup();
    const a = entry("dev-a", randomUUID(), 60_000);
    await sync.applyAnswer(full(5, a));
    expect(statSync(statePath).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(statePath, "utf8"))).toEqual({
      version: 5,
      entries: [["dev-a", { id: a.id, expiresAt: clock.now + 60_000 }]],
      leftovers: [],
      instanceId: "5f0c7e1e-8d7b-4c55-9a41-0b6f6f1f2a10",
    });
    expect(readdirSync(directory).filter((name) => name.endsWith(".tmp"))).toEqual([]);

    await sync.applyAnswer(delta(6, [], ["dev-a"]));
    expect(JSON.parse(readFileSync(statePath, "utf8"))).toMatchObject({ version: 6, entries: [] });
  });

  test("a new agent puts the saved list on a core that lost it, before asking the product anything", async () => {
    const first = setup();
    const a = entry("dev-a");
    await first.sync.applyAnswer(full(7, a));

    const restarted = setup(undefined, first.statePath);
    await restarted.sync.load();
    for (const inbound of inbounds) expect(restarted.core.users(inbound.tag)).toEqual({ "dev-a": a.id });
    expect(restarted.sync.allowList.version).toBe(7);
    expect(restarted.sync.appliedVersion).toBe(7);
  });

  test("entries that ran out while the agent was down are removed from the core that still holds them", async () => {
    const core = new FakeCoreApi(inbounds.map((inbound) => inbound.tag));
    const first = setup(core);
    await first.sync.applyAnswer(full(1, entry("dev-short", randomUUID(), 1_000), entry("dev-long")));

    const restarted = setup(core, first.statePath);
    restarted.clock.now += 2_000;
    await restarted.sync.load();
    for (const inbound of inbounds) expect(Object.keys(core.users(inbound.tag))).toEqual(["dev-long"]);
    expect(restarted.removed).toEqual(["dev-short"]);
  });

  test("a removal the core had not taken when the agent stopped is taken by the next agent", async () => {
    const core = new FakeCoreApi(inbounds.map((inbound) => inbound.tag));
    const first = setup(core);
    await first.sync.applyAnswer(full(1, entry("dev-a")));
    core.isDown = true;
    await first.sync.applyAnswer(delta(2, [], ["dev-a"]));
    core.isDown = false;
    expect(core.users("kannt-reality")).toHaveProperty("dev-a");

    await setup(core, first.statePath).sync.load();
    expect(core.users("kannt-reality")).toEqual({});
  });

  test("an unreadable state file is reported and the agent starts from the product's full list", async () => {
    const statePath = join(directory, "broken.json");
    writeFileSync(statePath, "{not json");
    const { sync } = setup(undefined, statePath);
    await sync.load();
    expect(sync.allowList.version).toBe(0);
  });
});

describe("core restarts", () => {
  test("a restart puts every current credential back", async () => {
    const { core, sync } = setup();
    const [a, b] = [entry("dev-a"), entry("dev-b")];
    await sync.applyAnswer(full(1, a, b));
    core.restart();
    await sync.coreRestarted();
    for (const inbound of inbounds) expect(core.users(inbound.tag)).toEqual({ "dev-a": a.id, "dev-b": b.id });
  });

  test("are noticed by uptime going down, or by the API failing and answering again", async () => {
    const core = new FakeCoreApi([]);
    const watch = new CoreWatch(core);
    expect(await watch.check()).toBe("up");
    expect(await watch.check()).toBe("up");
    core.restart();
    expect(await watch.check()).toBe("restarted");
    expect(await watch.check()).toBe("up");
    core.isDown = true;
    expect(await watch.check()).toBe("down");
    core.isDown = false;
    expect(await watch.check()).toBe("restarted");
    expect(await watch.check()).toBe("up");
  });
});
