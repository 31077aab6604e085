import { describe, expect, test } from "vitest";
import type { NodeReport } from "../../../../agent/contract/node-api";
import { nodeByAuthorization } from "../../../../bff/modules/access/nodes/node-keys";
import { allowListSize } from "../../../../bff/modules/access/subscription/allowlist/allowlist";
import { runOperatorCommand } from "../../../../bff/operator-commands";
import { dayMs } from "../../../../core/calendar";
import { statement } from "../../../../db/database";
import { apiOf, dataOf, refusalOf, staffOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { fixture } from "../../../helpers/customers";
import { makeOperator, tokensFor } from "../../../helpers/operators";

/** DESIGN §8: the panel's Nodes screen (administrators), its metrics, and the CLI's `node`. */
const { app, context, clock } = await makeTestApp();
const { database } = context;
const admin = await makeOperator(context, "nodes.admin", "admin");
const support = await makeOperator(context, "nodes.support", "support");
const asAdmin = staffOf((await tokensFor(app, admin.username, admin.password)).accessToken);
const asSupport = staffOf((await tokensFor(app, support.username, support.password)).accessToken);

type App = typeof app;

/** The Nodes screen's calls on `on`, as `staff`; a node by its id as the path writes it. */
function panelOf(on: App = app, staff = asAdmin) {
  const { nodes } = apiOf(on).panel;
  return {
    list: () => nodes.get(staff),
    add: (name: string) => nodes.post({ name }, staff),
    rotateKey: (id: number | string) => nodes({ id }).rotateKey.post({}, staff),
    disable: (id: number | string) => nodes({ id }).disable.post({}, staff),
    enable: (id: number | string) => nodes({ id }).enable.post({}, staff),
  };
}

const list = async () => (await dataOf(panelOf().list())).nodes;
const listed = async (name: string) => (await list()).find((node) => node.name === name);

async function add(name: string, on: App = app, staff = asAdmin) {
  const call = panelOf(on, staff).add(name);
  const added = await dataOf(call);
  // The key is in this answer once: no cache on the way may keep it.
  expect((await call).response.headers.get("cache-control")).toBe("no-store");
  return added;
}

/** A customer with access and `count` devices in use, each with its credential and tag. */
async function customerWithCredentials(
  on: Awaited<ReturnType<typeof makeTestApp>>,
  email: string,
  count: number,
) {
  // A slot for each device: devices past the customer's slots are not on the nodes.
  const { userId } = await fixture(on.app, { email, status: "ACTIVE", extraDevices: count - 1 });
  for (let index = 0; index < count; index++) {
    const id = crypto.randomUUID();
    await statement(
      on.context.database,
      `INSERT INTO devices (user_id, device_id, device_name, platform, is_active, created_at, credential, node_tag, sub_token)
       VALUES (?, ?, 'Phone', 'android', 1, ?, ?, ?, ?)`,
    ).run(userId, `device-${id}`, on.clock.now(), id, `tag-${id}`, `sub-${id}`);
  }
}

const newestVersion = async (on = database) =>
  (
    await statement<{ version: number | null }, []>(
      on,
      "SELECT MAX(version) AS version FROM access_changes",
    ).get()
  )?.version ?? 0;

/** Makes the log's change `version` as old as `ageMs` by the wall clock. */
const ageChange = (version: number, ageMs: number, on = database) =>
  statement(on, "UPDATE access_changes SET changed_at = ? WHERE version = ?").run(
    Date.now() - ageMs,
    version,
  );

const inbounds: NodeReport["inbounds"] = [
  {
    tag: "kannt-reality",
    protocol: "vless",
    port: 443,
    network: "tcp",
    security: "reality",
    flow: "xtls-rprx-vision",
    sni: "www.example.com",
    publicKey: "public-key",
    shortId: "ab12",
  },
  { tag: "kannt-ws", protocol: "vmess", port: 8443, network: "ws", security: "tls", path: "/ws" },
];

/** A whole report of a node (DESIGN §8), as its agent sends it. */
const reportOf = (body: Partial<NodeReport>): NodeReport => ({
  core: "v2ray",
  coreVersion: "4.34.0",
  host: "vpn.example.net",
  inbounds,
  appliedVersion: 0,
  credentials: 0,
  ...body,
});
const sendReport = (key: string, body: Partial<NodeReport>, on: App = app) =>
  apiOf(on).nodes.report.post(reportOf(body), { headers: { authorization: `Bearer ${key}` } });

/** The node's report of itself, through the node API with its key. */
async function report(key: string, body: Partial<NodeReport>, on: App = app) {
  await dataOf(sendReport(key, body, on));
}

/** The whole audit log, newest first (it pages by 20). */
async function auditEntries() {
  const entries = [];
  for (let page = 0; ; page++) {
    const { content } = await dataOf(apiOf(app).panel.audit.get({ ...asAdmin, query: { page } }));
    if (content.length === 0) return entries;
    entries.push(...content);
  }
}

/** The name in an audit entry's details, which the log answers as whatever JSON the action wrote. */
const nameIn = (details: unknown) =>
  typeof details === "object" && details !== null && "name" in details ? details.name : undefined;

describe("the panel's Nodes screen", () => {
  test("is for administrators only: support staff get a clear 403 on every call, nobody signed in a 401", async () => {
    const { node } = await add("only-admins");
    const bySupport = panelOf(app, asSupport);
    for (const call of [
      () => bySupport.list(),
      () => bySupport.add("by-support"),
      () => bySupport.rotateKey(node.id),
      () => bySupport.disable(node.id),
      () => bySupport.enable(node.id),
    ]) {
      expect(await refusalOf(call())).toEqual({
        status: 403,
        code: "admin_only",
        message: "Only an administrator can do this.",
      });
    }
    expect((await apiOf(app).panel.nodes.get()).status).toBe(401);
    expect((await listed("by-support")) ?? null).toBeNull();
  });

  test("an added node's key is answered once, works as the node's Bearer, and the list shows the node offline", async () => {
    const { success, node, key } = await add("fi-hel-1");
    expect(success).toBe(true);
    expect(key).toMatch(/^node_\S{20,}$/);
    expect(node).toMatchObject({
      name: "fi-hel-1",
      host: null,
      online: false,
      lastSeenAt: null,
      core: null,
      inbounds: [],
      // Its agent never connected: no lag to speak of (the screen says "never connected").
      syncLagSeconds: null,
      coreState: null,
      trafficToday: { upload: 0, download: 0 },
      disabled: false,
    });
    expect(await nodeByAuthorization(database, `Bearer ${key}`)).toEqual({ id: node.id, name: "fi-hel-1" });
    const all = await list();
    expect(all.find((item) => item.id === node.id)).toMatchObject({ name: "fi-hel-1", online: false });
    // Never readable again: not in the list, not in the audit log.
    expect(JSON.stringify(all)).not.toContain(key);
    const audited = (await auditEntries()).find(
      (entry) => entry.action === "node.create" && nameIn(entry.details) === "fi-hel-1",
    );
    expect(audited).toMatchObject({ operator: admin.username });
    expect(JSON.stringify(await auditEntries())).not.toContain(key);
  });

  test("a name is 1 to 64 Latin letters, digits, dots, dashes or underscores (400), unique in any letter case (409)", async () => {
    for (const name of ["", "   ", "a b", "x".repeat(65), "узел-1", "a/b", "node#1", "a+b"]) {
      expect(await refusalOf(panelOf().add(name)), JSON.stringify(name)).toEqual({
        status: 400,
        code: "invalid_node_name",
        message: "A node name is 1 to 64 Latin letters, digits, dots, dashes or underscores.",
      });
    }
    // No name, and a name that is no text.
    for (const body of [{}, { name: 7 }])
      expect((await apiOf(app).panel.nodes.post(body as never, asAdmin)).status).toBe(400);
    const first = await add("de-fra_1.a");
    expect(first.node.name).toBe("de-fra_1.a");
    for (const taken of ["de-fra_1.a", "DE-FRA_1.A", " de-fra_1.a "]) {
      expect(await refusalOf(panelOf().add(taken))).toEqual({
        status: 409,
        code: "node_name_taken",
        message: 'A node named "de-fra_1.a" already exists; choose another name.',
      });
    }
    // Surrounding spaces are not part of the name.
    expect((await add("  nl-ams-2  ")).node.name).toBe("nl-ams-2");
    expect((await list()).filter((node) => node.name.toLowerCase() === "de-fra_1.a")).toHaveLength(1);
  });

  test("a node that reported shows online with its core, inbounds, credentials against the allow-list, sync lag and today's traffic", async () => {
    await customerWithCredentials({ app, context, clock }, "nodes-one@example.com", 1);
    await customerWithCredentials({ app, context, clock }, "nodes-two@example.com", 1);
    const expected = await allowListSize(database, clock.now());
    expect(expected).toBe(2);
    const newest = await newestVersion();

    const current = await add("se-sto-1");
    await report(current.key, { appliedVersion: newest, credentials: 2, coreVersion: "4.34.0" });
    const behind = await add("se-sto-2");
    await report(behind.key, {
      appliedVersion: newest - 1,
      credentials: 1,
      core: "xray",
      coreVersion: "25.1.1",
    });
    await ageChange(newest, 90_000);

    // Today's bytes by the billing clock's UTC day; yesterday's are not today's.
    const today = Math.floor(clock.now() / dayMs);
    const device = await statement<{ id: number }, []>(database, "SELECT MIN(id) AS id FROM devices").get();
    const traffic = statement<never, [number, number, number, number, number]>(
      database,
      "INSERT INTO device_traffic (device_id, day, node_id, upload, download) VALUES (?, ?, ?, ?, ?)",
    );
    await traffic.run(device?.id ?? 0, today, current.node.id, 1_000, 50_000);
    await traffic.run(device?.id ?? 0, today - 1, current.node.id, 7, 7);
    await traffic.run(device?.id ?? 0, today, behind.node.id, 3, 4);

    const shown = await listed("se-sto-1");
    expect(shown).toMatchObject({
      host: "vpn.example.net",
      online: true,
      core: "v2ray",
      coreVersion: "4.34.0",
      inbounds: [
        { tag: "kannt-reality", protocol: "vless", port: 443, network: "tcp", security: "reality" },
        { tag: "kannt-ws", protocol: "vmess", port: 8443, network: "ws", security: "tls" },
      ],
      credentials: { held: 2, expected: 2 },
      appliedVersion: newest,
      syncLagSeconds: 0,
      trafficToday: { upload: 1_000, download: 50_000 },
      disabled: false,
    });
    expect(Date.now() - Date.parse(shown?.lastSeenAt ?? "")).toBeLessThan(60_000);
    // Only what the screen shows: the inbound's REALITY key and the like stay out.
    expect(JSON.stringify(shown)).not.toContain("public-key");

    const lagging = await listed("se-sto-2");
    expect(lagging).toMatchObject({
      online: true,
      core: "xray",
      credentials: { held: 1, expected: 2 },
      trafficToday: { upload: 3, download: 4 },
    });
    expect(lagging?.syncLagSeconds).toBeGreaterThanOrEqual(90);
    expect(lagging?.syncLagSeconds).toBeLessThan(600);

    // Silent for more than 30 s of wall clock: offline, with when it was last seen.
    const seenAt = Date.now() - 31_000;
    await statement(database, "UPDATE vpn_nodes SET last_seen_at = ? WHERE id = ?").run(
      seenAt,
      behind.node.id,
    );
    expect(await listed("se-sto-2")).toMatchObject({
      online: false,
      lastSeenAt: new Date(seenAt).toISOString(),
    });
  });

  test("a rotated key stops the old one at once; a disabled node is refused (403) and offline until enabled", async () => {
    const { node, key } = await add("pl-waw-1");
    await report(key, { appliedVersion: await newestVersion() });
    expect((await listed("pl-waw-1"))?.online).toBe(true);

    const rotated = panelOf().rotateKey(node.id);
    expect((await rotated).status).toBe(200);
    expect((await rotated).response.headers.get("cache-control")).toBe("no-store");
    const { key: fresh, node: after } = await dataOf(rotated);
    expect(fresh).not.toBe(key);
    expect(after.name).toBe("pl-waw-1");
    await expect(nodeByAuthorization(database, `Bearer ${key}`)).rejects.toMatchObject({
      code: "node_key_rotated",
      message: expect.stringMatching(
        /^This node's key was replaced on .+ UTC: put the new key in NODE_KEY\.$/,
      ),
    });
    expect((await sendReport(key, {})).status).toBe(401);
    expect(await nodeByAuthorization(database, `Bearer ${fresh}`)).toEqual({ id: node.id, name: "pl-waw-1" });

    const disabled = panelOf().disable(node.id);
    expect((await disabled).status).toBe(200);
    expect((await dataOf(disabled)).node).toMatchObject({ disabled: true, online: false });
    await expect(nodeByAuthorization(database, `Bearer ${fresh}`)).rejects.toMatchObject({
      code: "node_disabled",
      message: "This node is disabled in the panel.",
    });
    expect((await sendReport(fresh, {})).status).toBe(403);
    expect(await listed("pl-waw-1")).toMatchObject({ disabled: true, online: false });
    // Disabling twice changes nothing and records nothing more.
    expect((await panelOf().disable(node.id)).status).toBe(200);

    const enabled = await dataOf(panelOf().enable(node.id));
    expect(enabled.node.disabled).toBe(false);
    await report(fresh, { appliedVersion: await newestVersion() });
    expect((await listed("pl-waw-1"))?.online).toBe(true);

    const actions = (await auditEntries())
      .filter((entry) => nameIn(entry.details) === "pl-waw-1")
      .map((entry) => `${entry.action} by ${entry.operator}`);
    expect(actions.reverse()).toEqual(
      ["node.create", "node.rotate-key", "node.disable", "node.enable"].map(
        (action) => `${action} by ${admin.username}`,
      ),
    );
    expect(JSON.stringify(await auditEntries())).not.toContain(fresh);

    for (const path of ["rotateKey", "disable", "enable"] as const) {
      expect((await panelOf()[path](999999)).status).toBe(404);
      expect((await panelOf()[path]("0x10")).status).toBe(400);
    }
  });
});

describe("the access metrics", () => {
  test("kannt_nodes_online, kannt_node_sync_lag_seconds per enabled node and kannt_allowlist_credentials", async () => {
    const own = await makeTestApp();
    const boss = await makeOperator(own.context, "metrics.admin", "admin");
    const headers = staffOf((await tokensFor(own.app, boss.username, boss.password)).accessToken);
    await customerWithCredentials(own, "metrics-one@example.com", 2);
    await customerWithCredentials(own, "metrics-two@example.com", 1);
    // A customer without access holds no credential on the nodes.
    const { userId } = await fixture(own.app, { email: "metrics-over@example.com", status: "EXPIRED" });
    await statement(
      own.context.database,
      `INSERT INTO devices (user_id, device_id, device_name, platform, is_active, created_at, credential, node_tag, sub_token)
       VALUES (?, 'old-phone', 'Phone', 'android', 1, ?, ?, 'tag-over', 'sub-over')`,
    ).run(userId, own.clock.now(), crypto.randomUUID());
    const expected = await allowListSize(own.context.database, own.clock.now());
    expect(expected).toBe(3);
    const newest = await newestVersion(own.context.database);

    const upToDate = await add("m-current", own.app, headers);
    await report(upToDate.key, { appliedVersion: newest, credentials: 3 }, own.app);
    const behind = await add("m-behind", own.app, headers);
    await report(behind.key, { appliedVersion: newest - 1, credentials: 2 }, own.app);
    await ageChange(newest, 60_000, own.context.database);
    const oldest = await statement<{ version: number }, []>(
      own.context.database,
      "SELECT MIN(version) AS version FROM access_changes",
    ).get();
    await ageChange(oldest?.version ?? 0, 120_000, own.context.database);
    const off = await add("m-disabled", own.app, headers);
    await report(off.key, { appliedVersion: newest }, own.app);
    await panelOf(own.app, headers).disable(off.node.id);
    await add("m-silent", own.app, headers);

    const scrape = async () =>
      (await own.context.metrics.registry.metrics())
        .split("\n")
        .filter((line) => line && !line.startsWith("#"));
    const value = (lines: string[], series: string) =>
      Number(lines.find((line) => line.startsWith(`${series} `))?.split(" ")[1] ?? Number.NaN);

    const text = await own.context.metrics.registry.metrics();
    for (const name of ["kannt_nodes_online", "kannt_node_sync_lag_seconds", "kannt_allowlist_credentials"]) {
      expect(text).toContain(`# HELP ${name} `);
      expect(text).toContain(`# TYPE ${name} gauge`);
    }
    const lines = await scrape();
    expect(value(lines, "kannt_nodes_online")).toBe(2);
    expect(value(lines, "kannt_allowlist_credentials")).toBe(3);
    expect(value(lines, 'kannt_node_sync_lag_seconds{node="m-current"}')).toBe(0);
    expect(value(lines, 'kannt_node_sync_lag_seconds{node="m-behind"}')).toBeGreaterThanOrEqual(60);
    expect(value(lines, 'kannt_node_sync_lag_seconds{node="m-behind"}')).toBeLessThan(600);
    // Never reported: behind by everything since the log's first change.
    expect(value(lines, 'kannt_node_sync_lag_seconds{node="m-silent"}')).toBeGreaterThanOrEqual(120);
    expect(lines.some((line) => line.includes('node="m-disabled"'))).toBe(false);

    // Disabled since the last scrape: out of the count and its series gone.
    await panelOf(own.app, headers).disable(upToDate.node.id);
    const later = await scrape();
    expect(value(later, "kannt_nodes_online")).toBe(1);
    expect(later.some((line) => line.includes('node="m-current"'))).toBe(false);
  });
});

describe("npm run operator -- node <name>", () => {
  test("prints the key last on its line, under the panel's name rule, and says when the name is taken", async () => {
    const made = await runOperatorCommand(database, ["node", "cli-node-1"], clock.now());
    expect(made.exitCode, made.output).toBe(0);
    const key = made.output.match(/^Node "cli-node-1" key \(shown once\): (node_\S+)$/)?.[1] ?? "";
    expect(made.output.endsWith(key)).toBe(true);
    expect(await nodeByAuthorization(database, `Bearer ${key}`)).toMatchObject({ name: "cli-node-1" });
    expect((await listed("cli-node-1"))?.online).toBe(false);

    const taken = await runOperatorCommand(database, ["node", "CLI-node-1"], clock.now());
    expect(taken).toEqual({
      exitCode: 1,
      output: 'A node named "cli-node-1" already exists; choose another name.',
    });
    const bad = await runOperatorCommand(database, ["node", "bad name!"], clock.now());
    expect(bad).toEqual({
      exitCode: 1,
      output: "A node name is 1 to 64 Latin letters, digits, dots, dashes or underscores.",
    });
    // Audited, as made by nobody in the panel.
    expect(
      (await auditEntries()).find(
        (entry) => entry.action === "node.create" && nameIn(entry.details) === "cli-node-1",
      ),
    ).toMatchObject({ operator: null });
  });
});
