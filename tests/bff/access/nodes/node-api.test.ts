import type { Static } from "elysia";
import { describe, expect, test } from "vitest";
import { runRetention } from "../../../../bff/jobs/retention";
import { monthStartDay } from "../../../../bff/modules/access/devices/devices-part";
import { createNode, setNodeDisabled } from "../../../../bff/modules/access/nodes/node-keys";
import { createChangeWatcher } from "../../../../bff/modules/access/subscription/allowlist/change-watcher";
import { dayMs } from "../../../../bff/platform/calendar";
import type { errorResponse } from "../../../../bff/platform/schemas";
import { type Api, apiOf, dataOf, identityOf, refusalOf, sessionOf, staffOf } from "../../../helpers/api";
import { makeTestApp, postJson } from "../../../helpers/app";
import { type SignedIn, signIn } from "../../../helpers/customers";
import {
  allowList,
  entryWithId,
  nodeHeaders,
  postEvents,
  rawNodeCalls,
  sampleReport,
} from "../../../helpers/nodes";
import { makeOperator, tokensFor } from "../../../helpers/operators";
import { advanceDays, cards, order, payWithCard } from "../../../helpers/payments";

/** DESIGN §8: the calls of the node agents. */
type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

async function payingCustomer({ app }: TestApp, email: string) {
  const customer = await signIn(app, email);
  const widget = await order(app, customer, 1, 30);
  expect((await payWithCard(app, widget.invoiceId, cards.success)).success).toBe(true);
  return { customer, userId: Number(widget.accountId.replace("customer-", "")) };
}

async function connect({ app, context }: TestApp, customer: SignedIn) {
  const { deviceId } = await dataOf(
    apiOf(app).profile.devices.connect.post(identityOf(customer), sessionOf(customer)),
  );
  const row = await context.database.get<{ id: number; credential: string; node_tag: string }>(
    "SELECT id, credential, node_tag FROM devices WHERE device_id = ?",
    [deviceId],
  );
  return { deviceId, rowId: Number(row?.id), id: row?.credential ?? "", tag: row?.node_tag ?? "" };
}

/** Every call a node makes, with `headers`. */
const nodeCalls = ({ nodes }: Api, headers: Record<string, string>) => [
  () => nodes.allowlist.get({ headers }),
  () => nodes.report.post(sampleReport, { headers }),
  () => nodes.events.post({ traffic: [], connections: [] }, { headers }),
];

describe("a node's key", () => {
  test("is required on every node call, as a bearer; an unknown key is 401 and a disabled node 403", async () => {
    const { app, context } = await makeTestApp();
    const api = apiOf(app);
    const key = await createNode(context.database, "de-fra-1", context.clock.now());
    for (const call of nodeCalls(api, {})) {
      expect(await refusalOf(call())).toMatchObject({
        status: 401,
        message: "A node key is required: Authorization: Bearer {NODE_KEY}.",
      });
    }
    for (const authorization of ["Bearer node_wrong", `Basic ${btoa(`node:${key}`)}`, key]) {
      for (const call of nodeCalls(api, { authorization })) expect((await call()).status).toBe(401);
    }
    for (const call of nodeCalls(api, { authorization: `Bearer ${key}` }))
      expect((await call()).status).toBe(200);
    const node = await context.database.get<{ id: number }>(
      "SELECT id FROM vpn_nodes WHERE name = 'de-fra-1'",
    );
    await setNodeDisabled(context.database, Number(node?.id), context.clock.now());
    for (const call of nodeCalls(api, { authorization: `Bearer ${key}` })) {
      expect(await refusalOf(call())).toMatchObject({
        status: 403,
        message: "This node is disabled in the panel.",
      });
    }
  });
});

describe("the allow-list's long poll", () => {
  test("a waiting agent is answered as soon as a change is made", async () => {
    const testApp = await makeTestApp();
    const node = await nodeHeaders(testApp.context, "nl-ams-1");
    const { customer } = await payingCustomer(testApp, "poll@example.com");
    const { version } = await allowList(testApp.app, node);
    let isAnswered = false;
    const waiting = allowList(testApp.app, node, { since: version, wait: 20 }).finally(() => {
      isAnswered = true;
    });
    await Bun.sleep(500);
    expect(isAnswered).toBe(false);
    const device = await connect(testApp, customer);
    const answer = await waiting;
    expect(answer.version).toBeGreaterThan(version);
    expect(answer).toMatchObject({ full: false, removed: [] });
    expect(entryWithId(answer, device.id)?.tag).toBe(device.tag);
  });

  test("with nothing new it answers an empty delta at the same version when the wait is over", async () => {
    const testApp = await makeTestApp();
    const node = await nodeHeaders(testApp.context, "nl-ams-2");
    await payingCustomer(testApp, "quiet@example.com");
    const { version } = await allowList(testApp.app, node);
    expect(await allowList(testApp.app, node, { since: version, wait: 1 })).toEqual({
      version,
      full: false,
      entries: [],
      removed: [],
    });
  });

  test("waiting agents are let go when the server stops", async () => {
    const { context } = await makeTestApp();
    const stopping = new AbortController();
    const watcher = createChangeWatcher(context.database, stopping.signal);
    const waiting = watcher.wait(Number.MAX_SAFE_INTEGER, Date.now() + 3_600_000);
    stopping.abort();
    await waiting;
    // Once stopped, nobody is made to wait at all.
    await watcher.wait(Number.MAX_SAFE_INTEGER, Date.now() + 3_600_000);
  });
});

describe("a node's report of itself", () => {
  test("is kept for the links and the panel, seen at the wall clock's time", async () => {
    const { app, context } = await makeTestApp();
    const node = await nodeHeaders(context, "se-sto-1");
    await advanceDays(app, 3);
    const before = Date.now();
    const answer = await apiOf(app).nodes.report.post(
      { ...sampleReport, appliedVersion: 42, credentials: 7 },
      { headers: node },
    );
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({ success: true });
    const row = await context.database.get<Record<string, unknown>>(
      `SELECT host, core, core_version, inbounds, applied_version, credentials_count, last_seen_at
       FROM vpn_nodes WHERE name = 'se-sto-1'`,
    );
    expect(row).toMatchObject({
      host: "nl1.example.net",
      core: "xray",
      core_version: "25.6.8",
      applied_version: 42,
      credentials_count: 7,
    });
    expect(JSON.parse(String(row?.inbounds))).toEqual(sampleReport.inbounds);
    // The wall clock, not the test clock three days ahead.
    expect(Number(row?.last_seen_at)).toBeGreaterThanOrEqual(before);
    expect(Number(row?.last_seen_at)).toBeLessThanOrEqual(Date.now());
  });
});

describe("a node's events", () => {
  test("traffic adds up per device, day and node, and the cabinet shows this month's", async () => {
    const testApp = await makeTestApp();
    const { app, context } = testApp;
    const first = await nodeHeaders(context, "fr-par-1");
    const second = await nodeHeaders(context, "fr-par-2");
    const { customer } = await payingCustomer(testApp, "traffic@example.com");
    const device = await connect(testApp, customer);
    const batch = { traffic: [{ tag: device.tag, upload: 100, download: 2_000 }] };
    for (const node of [first, first, second]) {
      expect((await postEvents(app, node, batch)).data).toEqual({ success: true, ignored: 0 });
    }
    const unknown = await postEvents(app, first, {
      traffic: [{ tag: "k00000000000000000000", upload: 5, download: 5 }],
    });
    expect(unknown.data).toEqual({ success: true, ignored: 1 });
    const rows = await context.database.all<{ day: number; upload: number; download: number }>(
      "SELECT day, upload, download FROM device_traffic WHERE device_id = ? ORDER BY node_id",
      [device.rowId],
    );
    const today = Math.floor(context.clock.now() / dayMs);
    expect(rows.map((row) => ({ ...row, day: Number(row.day) }))).toEqual([
      { day: today, upload: 200, download: 4_000 },
      { day: today, upload: 100, download: 2_000 },
    ]);
    // Last month's bytes are not this month's.
    const node = await context.database.get<{ id: number }>(
      "SELECT id FROM vpn_nodes WHERE name = 'fr-par-1'",
    );
    await context.database.run(
      "INSERT INTO device_traffic (device_id, day, node_id, upload, download) VALUES (?, ?, ?, 1000000, 1000000)",
      [device.rowId, monthStartDay(context.clock.now()) - 1, Number(node?.id)],
    );
    const profile = await dataOf(apiOf(app).profile.post(identityOf(customer), sessionOf(customer)));
    expect(profile.devices.map((item) => item.traffic)).toEqual([{ upload: 300, download: 6_000 }]);
  });

  test("connections fill the panel's logs under the node's name, dated on the product's clock", async () => {
    const testApp = await makeTestApp();
    const { app, context } = testApp;
    const node = await nodeHeaders(context, "pl-waw-1");
    const { customer, userId } = await payingCustomer(testApp, "connections@example.com");
    const device = await connect(testApp, customer);
    await advanceDays(app, 2);
    const before = context.clock.now();
    const sent = await postEvents(app, node, {
      connections: [
        { tag: device.tag, clientIp: "203.0.113.5", at: Date.now(), success: true },
        { tag: device.tag, clientIp: "2001:db8::7", at: Date.now(), success: false },
        { tag: "k00000000000000000000", clientIp: "203.0.113.9", at: Date.now(), success: true },
        // A node whose clock is years off: dated now.
        { tag: device.tag, clientIp: "203.0.113.6", at: 0, success: true },
      ],
    });
    expect(sent.data).toEqual({ success: true, ignored: 1 });
    const after = context.clock.now();
    const stored = await context.database.all<{
      connected_at: number;
      server_name: string;
      device_id: number;
    }>("SELECT connected_at, server_name, device_id FROM connection_logs WHERE user_id = ?", [userId]);
    expect(stored).toHaveLength(3);
    for (const row of stored) {
      expect(row.server_name).toBe("pl-waw-1");
      expect(Number(row.device_id)).toBe(device.rowId);
      // Two days ahead of the wall clock, as the test clock is.
      expect(Number(row.connected_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Number(row.connected_at)).toBeLessThanOrEqual(after);
    }
    const admin = await makeOperator(context, "nodes.admin", "admin");
    const { accessToken } = await tokensFor(app, admin.username, admin.password);
    const logs = await dataOf(apiOf(app).panel.logs.post({}, { ...staffOf(accessToken), query: { userId } }));
    expect(logs.map((log) => [log.serverName, log.userIp, log.success]).sort()).toEqual(
      [
        ["pl-waw-1", "203.0.113.5", true],
        ["pl-waw-1", "2001:db8::7", false],
        ["pl-waw-1", "203.0.113.6", true],
      ].sort(),
    );
  });
});

describe("a batch of events sent again under its id", () => {
  test("is stored once for its node, answered as repeated; without an id every send is stored", async () => {
    const testApp = await makeTestApp();
    const { app, context } = testApp;
    const first = await nodeHeaders(context, "de-fra-1");
    const second = await nodeHeaders(context, "de-fra-2");
    const { customer, userId } = await payingCustomer(testApp, "batches@example.com");
    const device = await connect(testApp, customer);
    const batch = {
      batchId: "0b4c1f5e-8d6a-4e3b-9a7c-2f1d0e9b8a76",
      traffic: [{ tag: device.tag, upload: 100, download: 2_000 }],
      connections: [{ tag: device.tag, clientIp: "203.0.113.5", at: Date.now(), success: true }],
    };
    // The answer to the first was lost: the agent sends the very batch again.
    expect((await postEvents(app, first, batch)).data).toEqual({ success: true, ignored: 0 });
    expect((await postEvents(app, first, batch)).data).toEqual({
      success: true,
      ignored: 0,
      repeated: true,
    });
    // Another node's batch of the same id is its own.
    expect((await postEvents(app, second, batch)).data).toEqual({ success: true, ignored: 0 });
    const { batchId: _, ...withoutId } = batch;
    for (let send = 0; send < 2; send++) await postEvents(app, first, withoutId);
    const bytes = await context.database.all<{ upload: number }>(
      "SELECT upload FROM device_traffic WHERE device_id = ? ORDER BY node_id",
      [device.rowId],
    );
    expect(bytes.map((row) => Number(row.upload))).toEqual([300, 100]);
    const logs = await context.database.all<{ server_name: string }>(
      "SELECT server_name FROM connection_logs WHERE user_id = ? ORDER BY server_name",
      [userId],
    );
    expect(logs.map((row) => row.server_name)).toEqual(["de-fra-1", "de-fra-1", "de-fra-1", "de-fra-2"]);
  });

  test("is known for a day; retention forgets older ids", async () => {
    const testApp = await makeTestApp();
    const { app, context } = testApp;
    const node = await nodeHeaders(context, "de-ber-1");
    const sent = (batchId: string) => postEvents(app, node, { batchId });
    await sent("kept-for-a-day");
    await sent("older-than-a-day");
    await context.database.run("UPDATE node_event_batches SET received_at = ? WHERE batch_id = ?", [
      Date.now() - dayMs - 60_000,
      "older-than-a-day",
    ]);
    await runRetention(context);
    const ids = await context.database.all<{ batch_id: string }>("SELECT batch_id FROM node_event_batches");
    expect(ids.map((row) => row.batch_id)).toEqual(["kept-for-a-day"]);
    expect((await sent("kept-for-a-day")).data).toMatchObject({ repeated: true });
  });

  test("an id that is no id is refused with 400", async () => {
    const { app, context } = await makeTestApp();
    const node = await nodeHeaders(context, "de-muc-1");
    for (const batchId of ["", "x".repeat(65), "semi;colon"]) {
      expect((await postEvents(app, node, { batchId })).status).toBe(400);
    }
  });
});

describe("bad input from a node", () => {
  test("is refused with 400 and a message, never a 500", async () => {
    const { app, context } = await makeTestApp();
    const node = await nodeHeaders(context, "bad-input");
    // Input no node should send; bodies the client's types refuse are passed as they are.
    const { nodes, events, report, sample, event, inbound } = rawNodeCalls(app, node);
    const allowListAt = (query: { since: string; wait?: string }) => () =>
      nodes.allowlist.get({ headers: node, query });
    const calls = [
      ...["abc", "-1", "1e3", "1.5", "0x10", "1234567890123456789"].map(
        (since) => [`since=${since}`, allowListAt({ since })] as const,
      ),
      ...["21", "-1", "1.5", "x"].map((wait) => [`wait=${wait}`, allowListAt({ since: "1", wait })] as const),
      ["negative bytes", events({ traffic: [{ ...sample, upload: -1 }], connections: [] })],
      ["fractional bytes", events({ traffic: [{ ...sample, upload: 1.5 }], connections: [] })],
      [
        "too many samples",
        events({
          traffic: Array.from({ length: 1001 }, () => ({ tag: "k", upload: 1, download: 1 })),
          connections: [],
        }),
      ],
      ["an empty tag", events({ traffic: [{ ...sample, tag: "" }], connections: [] })],
      ["no connections field", events({ traffic: [] })],
      ["an address that is none", events({ traffic: [], connections: [{ ...event, clientIp: "<script>" }] })],
      ["a time as text", events({ traffic: [], connections: [{ ...event, at: "now" }] })],
      ["an unknown core", report({ ...sampleReport, core: "nginx" })],
      ["port 70000", report({ ...sampleReport, inbounds: [{ ...inbound, port: 70_000 }] })],
      ["65 inbounds", report({ ...sampleReport, inbounds: Array(65).fill(inbound) })],
      ["a host with a NUL", report({ ...sampleReport, host: "nl1\u0000.example.net" })],
      ["no host", report({ ...sampleReport, host: undefined })],
    ] as const;
    for (const [label, call] of calls) {
      const answer = call();
      const refused = await refusalOf(answer);
      expect(refused.status, label).toBe(400);
      expect((await answer).error?.value, label).toMatchObject({ success: false });
      expect(refused.message.length, label).toBeGreaterThan(10);
    }
    // A body that is no JSON at all, which only raw bytes can carry.
    const response = await app.handle(postJson("/api/nodes/report", "{", node));
    expect(response.status, "not JSON").toBe(400);
    const body = (await response.json()) as Static<typeof errorResponse>;
    expect(body.success, "not JSON").toBe(false);
    expect(body.error.message.length, "not JSON").toBeGreaterThan(10);
  });
});
