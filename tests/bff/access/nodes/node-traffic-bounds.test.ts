import { describe, expect, test } from "vitest";
import { listNodes } from "../../../../bff/modules/access/nodes/panel-nodes";
import { dayMs } from "../../../../bff/platform/calendar";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf } from "../../../helpers/api";
import { makeTestApp, request } from "../../../helpers/app";
import {
  allAnswered,
  customerCallStatuses,
  customerWithDevice,
  nodeHeaders,
  postEvents,
  sampleReport,
} from "../../../helpers/nodes";

/** DESIGN §8: what a node says of traffic is bounded by physics, and no total can break a customer's calls. */
const largest = Number.MAX_SAFE_INTEGER;
/** Bytes a 10 Gbit/s link (NODE_LINK_GBPS's default) carries in 10 s, the shortest period counted. */
const tenGigabitsTenSeconds = 12_500_000_000;

async function refusal(call: Parameters<typeof refusalOf>[0]) {
  const refused = await refusalOf(call);
  expect(refused.status).toBe(400);
  return refused;
}

async function rowsOf(context: Awaited<ReturnType<typeof makeTestApp>>["context"], rowId: number) {
  const rows = await context.database.all<{ upload: number; download: number }>(
    "SELECT upload, download FROM device_traffic WHERE device_id = ? ORDER BY node_id, day",
    [rowId],
  );
  return rows.map((row) => ({ upload: Number(row.upload), download: Number(row.download) }));
}

describe("the issue's case: two nodes send samples of 2^53 − 1 bytes for one device", () => {
  test("each batch is refused with 400, nothing is stored, and the customer's calls keep answering 200", async () => {
    const { app, context } = await makeTestApp();
    const nodes = [await nodeHeaders(context, "de-fra-1"), await nodeHeaders(context, "de-fra-2")];
    const { customer, device } = await customerWithDevice(app, context, "huge@example.com");
    const huge = { tag: device.tag, upload: largest, download: largest };
    for (const node of nodes) {
      for (const traffic of [[huge], Array(600).fill(huge)]) {
        const error = await refusal(postEvents(app, node, { traffic }));
        expect(error.code).toBe("node_traffic_beyond_link");
        expect(error.message).toContain('Field "traffic.0.upload"');
        expect(error.message).toContain("10 Gbit/s");
      }
    }
    expect(await rowsOf(context, device.rowId)).toEqual([]);
    expect(await customerCallStatuses(app, customer, device.subscriptionPath)).toEqual(allAnswered);
  });
});

describe("a sample is bounded by the node's link over the batch's period", () => {
  test("at most NODE_LINK_GBPS × periodMs (counted as at least 10 s) per device and direction, the batch's samples added up", async () => {
    const { app, context } = await makeTestApp();
    const node = await nodeHeaders(context, "nl-ams-1");
    const { device } = await customerWithDevice(app, context, "bound@example.com");
    const sample = (upload: number, download = 0) => ({ tag: device.tag, upload, download });
    const send = (periodMs: number | undefined, traffic: ReturnType<typeof sample>[]) =>
      apiOf(app).nodes.events.post({ periodMs, traffic, connections: [] }, { headers: node });

    // 10 s at 10 Gbit/s: the bound itself passes, a byte more does not; a shorter period counts as 10 s.
    expect((await send(10_000, [sample(tenGigabitsTenSeconds)])).status).toBe(200);
    expect((await send(1, [sample(0, tenGigabitsTenSeconds)])).status).toBe(200);
    const over = await refusal(send(10_000, [sample(0, tenGigabitsTenSeconds + 1)]));
    expect(over).toMatchObject({ code: "node_traffic_beyond_link" });
    expect(over.message).toBe(
      `Field "traffic.0.download": ${tenGigabitsTenSeconds + 1} bytes for tag ${device.tag} in 10 s is more than a 10 Gbit/s link carries (at most ${tenGigabitsTenSeconds}); the whole batch was refused.`,
    );
    // A minute allows six times as much.
    expect((await send(60_000, [sample(6 * tenGigabitsTenSeconds)])).status).toBe(200);
    // One device's samples in a batch are added up: the second one passes the bound.
    const split = await refusal(send(10_000, [sample(7e9), sample(6e9)]));
    expect(split.message).toContain('Field "traffic.1.upload"');
    // Without periodMs (agents before it) the longest period, 7 days, is assumed.
    const week = tenGigabitsTenSeconds * 6 * 60 * 24 * 7;
    expect((await send(undefined, [sample(week)])).status).toBe(200);
    expect((await refusal(send(undefined, [sample(week + 1)]))).code).toBe("node_traffic_beyond_link");
    // A period outside 1 ms .. 7 days is bad input.
    for (const periodMs of [0, -5, 7 * dayMs + 1, 1.5]) expect((await send(periodMs, [])).status).toBe(400);

    // Only what passed was stored: 1.25e10 + 7.5e10 + 7.56e14 up, 1.25e10 down.
    expect(await rowsOf(context, device.rowId)).toEqual([
      { upload: tenGigabitsTenSeconds * 7 + week, download: tenGigabitsTenSeconds },
    ]);
  });

  test("NODE_LINK_GBPS sets the link: at 1 Gbit/s a tenth of the default passes", async () => {
    const { app, context } = await makeTestApp({ NODE_LINK_GBPS: "1" });
    const node = await nodeHeaders(context, "slow-link");
    const { device } = await customerWithDevice(app, context, "slow@example.com");
    const send = (upload: number) =>
      postEvents(app, node, { periodMs: 10_000, traffic: [{ tag: device.tag, upload, download: 0 }] });
    expect((await send(tenGigabitsTenSeconds / 10)).status).toBe(200);
    expect((await refusal(send(tenGigabitsTenSeconds / 10 + 1))).message).toContain("1 Gbit/s");
  });
});

describe("no total can exceed 2^53 − 1 on either engine", () => {
  test("a day's row stops at 2^53 − 1 however many batches add to it", async () => {
    // A 1000 Gbit/s link over 7 days carries more than 2^53 bytes: each sample may be the largest.
    const { app, context } = await makeTestApp({ NODE_LINK_GBPS: "1000" });
    const node = await nodeHeaders(context, "fat-link");
    const { customer, device } = await customerWithDevice(app, context, "fat@example.com");
    for (let batch = 0; batch < 3; batch++) {
      const sent = await postEvents(app, node, {
        periodMs: 7 * dayMs,
        traffic: [{ tag: device.tag, upload: largest, download: 5 }],
      });
      expect(sent.status).toBe(200);
    }
    expect(await rowsOf(context, device.rowId)).toEqual([{ upload: largest, download: 15 }]);
    expect(await customerCallStatuses(app, customer, device.subscriptionPath)).toEqual(allAnswered);
  });

  test("rows that add up past 2^63 read as 2^53 − 1 in the cabinet, the export, /sub and the panel", async () => {
    const { app, context } = await makeTestApp();
    const { customer, device } = await customerWithDevice(app, context, "rows@example.com");
    const ids: number[] = [];
    for (const name of ["many-rows-1", "many-rows-2"]) {
      await nodeHeaders(context, name);
      const row = await context.database.get<{ id: number }>("SELECT id FROM vpn_nodes WHERE name = ?", [
        name,
      ]);
      ids.push(Number(row?.id));
    }
    const today = Math.floor(context.clock.now() / dayMs);
    // Rows of 2^62 each (written before the cap, or by hand): any two of them add up past
    // 2^63 − 1, where SQLite's SUM fails. Two nodes today, and the first node yesterday.
    for (const [nodeId, day] of [
      [ids[0], today],
      [ids[1], today],
      [ids[0], today - 1],
    ])
      await context.database.run(
        `INSERT INTO device_traffic (device_id, day, node_id, upload, download)
         VALUES (?, ?, ?, 4611686018427387904, 4611686018427387904)`,
        [device.rowId, Number(day), Number(nodeId)],
      );

    expect(await customerCallStatuses(app, customer, device.subscriptionPath)).toEqual(allAnswered);
    const { profile } = apiOf(app);
    const mine = await dataOf(profile.post(identityOf(customer), sessionOf(customer)));
    expect(mine.devices.map((item) => item.traffic)).toEqual([{ upload: largest, download: largest }]);
    const exported = await dataOf(profile.export.post(identityOf(customer), sessionOf(customer)));
    expect(exported.traffic.map(({ upload, download }) => [upload, download])).toEqual([
      [largest, largest],
      [largest, largest],
    ]);
    const sub = await app.handle(request(device.subscriptionPath));
    expect(sub.headers.get("subscription-userinfo")).toContain(`upload=${largest}; download=${largest};`);
    const panel = await listNodes(context.database, context.clock.now());
    expect(panel.map((node) => node.trafficToday)).toEqual([
      { upload: largest, download: largest },
      { upload: largest, download: largest },
    ]);
  });
});

describe("a node's numbers are JSON numbers and its client addresses real addresses", () => {
  test("numbers written as text are refused with 400, in events and reports", async () => {
    const { app, context } = await makeTestApp();
    const node = await nodeHeaders(context, "strict-numbers");
    const sample = { tag: "k00000000000000000000", upload: 1, download: 1 };
    const event = { tag: "k00000000000000000000", clientIp: "203.0.113.5", at: Date.now(), success: true };
    const inbound = sampleReport.inbounds[0];
    // Bodies the client's types refuse, sent as they are: a number written as text.
    const { nodes } = apiOf(app);
    const events = (body: object) => () => nodes.events.post(body as never, { headers: node });
    const report = (body: object) => () => nodes.report.post(body as never, { headers: node });
    const calls = [
      ["upload as text", events({ traffic: [{ ...sample, upload: "5" }], connections: [] })],
      ["download as text", events({ traffic: [{ ...sample, download: "0" }], connections: [] })],
      ["at as text", events({ traffic: [], connections: [{ ...event, at: "1700000000000" }] })],
      ["periodMs as text", events({ periodMs: "10000", traffic: [], connections: [] })],
      ["appliedVersion as text", report({ ...sampleReport, appliedVersion: "5" })],
      ["credentials as text", report({ ...sampleReport, credentials: "7" })],
      ["port as text", report({ ...sampleReport, inbounds: [{ ...inbound, port: "443" }] })],
    ] as const;
    for (const [label, call] of calls) {
      const refused = await refusalOf(call());
      expect(refused.status, label).toBe(400);
      expect(refused.message, label).toContain("must be a whole number");
    }
  });

  test("a client address must parse as IPv4 or IPv6: '::::::' and the like are 400", async () => {
    const { app, context } = await makeTestApp();
    const node = await nodeHeaders(context, "strict-addresses");
    const { device } = await customerWithDevice(app, context, "addresses@example.com");
    const send = (clientIp: string) =>
      postEvents(app, node, { connections: [{ tag: device.tag, clientIp, at: Date.now(), success: true }] });
    for (const clientIp of [
      "::::::",
      ":::",
      "1::2::3",
      "1.2.3.256",
      "01.2.3.4",
      "1.2.3",
      "fe80::1%eth0",
      "1:2:3:4:5:6:7:8:9",
    ]) {
      const error = await refusal(send(clientIp));
      expect(error.message, clientIp).toBe('Field "connections.0.clientIp": is not in the expected form.');
    }
    for (const clientIp of ["203.0.113.5", "2001:db8::7", "::ffff:198.51.100.7", "::1"])
      expect((await send(clientIp)).status, clientIp).toBe(200);
  });
});
