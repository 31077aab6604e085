import { describe, expect, test } from "vitest";
import { apiOf, dataOf, refusalOf, staffOf } from "../../../helpers/api";
import { makeTestApp, request } from "../../../helpers/app";
import { nodeHeaders, reportedNode, sampleReport, subscribedDeviceToken } from "../../../helpers/nodes";
import { makeOperator, tokensFor } from "../../../helpers/operators";
import { inbounds } from "../../../helpers/subscription-inbounds";

/** DESIGN §8: what a subscription lists is the operator's entries, changed from the panel. */
const { app, context } = await makeTestApp();
const { database, clock } = context;
const admin = await makeOperator(context, "entries.admin", "admin");
const support = await makeOperator(context, "entries.support", "support");
const asAdmin = staffOf((await tokensFor(app, admin.username, admin.password)).accessToken);
const asSupport = staffOf((await tokensFor(app, support.username, support.password)).accessToken);
const api = apiOf(app);
const calls = api.panel.entries;

await reportedNode(
  database,
  { name: "Amsterdam", host: "nl.example.com", inbounds: [inbounds.realityVision, inbounds.tlsWs] },
  clock.now(),
);
await reportedNode(
  database,
  { name: "Frankfurt", host: "de.example.com", inbounds: [inbounds.realityVision] },
  clock.now(),
);

async function entries() {
  return (await dataOf(calls.get(asAdmin))).entries;
}
const entryOf = async (node: string, tag: string) => {
  const found = (await entries()).find((entry) => entry.nodeName === node && entry.inboundTag === tag);
  if (!found) throw new Error(`no entry for ${node}/${tag}`);
  return found;
};
type Settings = NonNullable<Parameters<ReturnType<typeof calls>["patch"]>[0]>;
/** A change to entry `id`, typed by the route's own body schema. */
const patch = (id: number | string, settings: Settings, staff = asAdmin) =>
  calls({ id }).patch(settings, staff);

/** A customer with access (`tariff` months) and one device: its subscription token. */
const customerToken = (email: string, tariff: 1 | 3 | 6 | 12 = 1) =>
  subscribedDeviceToken(app, database, email, tariff);
const links = async (token: string) => {
  const response = await app.handle(request(`/sub/${token}?format=base64`));
  expect(response.status).toBe(200);
  return Buffer.from(await response.text(), "base64")
    .toString("utf8")
    .split("\n")
    .filter(Boolean);
};
const linkNames = async (token: string) =>
  (await links(token)).map((link) => decodeURIComponent(new URL(link).hash.slice(1)));
const auditActions = async () =>
  (
    await database.all<{ action: string; details: string }>(
      "SELECT action, details FROM audit_log ORDER BY id",
    )
  ).filter((row) => row.action.startsWith("entry."));

const monthly = await customerToken("entries-monthly@example.com", 1);
const yearly = await customerToken("entries-yearly@example.com", 12);

describe("published entries", () => {
  test("each inbound a node reports gets one entry, once; subscriptions list them in the operator's order", async () => {
    const headers = await nodeHeaders(context, "Helsinki");
    for (let round = 0; round < 2; round++) {
      const answer = await api.nodes.report.post({ ...sampleReport, host: "fi.example.com" }, { headers });
      expect(answer.status).toBe(200);
    }
    const all = await entries();
    expect(all.map((entry) => `${entry.nodeName}/${entry.inboundTag}`)).toEqual([
      "Amsterdam/kannt-reality",
      "Amsterdam/kannt-ws",
      "Frankfurt/kannt-reality",
      "Helsinki/kannt-reality",
    ]);
    expect(all.every((entry) => entry.enabled && entry.out === null)).toBe(true);
    expect(await linkNames(monthly)).toEqual([
      "Kannt · Amsterdam",
      "Kannt · Amsterdam 2",
      "Kannt · Frankfurt",
      "Kannt · Helsinki",
    ]);
  });

  test("an entry's own address, port, SNI, fingerprint and ALPN are what links dial; null gives one back to the inbound", async () => {
    const entry = await entryOf("Frankfurt", "kannt-reality");
    await dataOf(
      patch(entry.id, {
        address: "cdn.example.org",
        port: 8443,
        sni: "www.example.org",
        fingerprint: "firefox",
        alpn: ["h2"],
        remark: "Frankfurt CDN",
      }),
    );
    const link = (await links(monthly)).find((item) => item.endsWith(encodeURIComponent("Frankfurt CDN")));
    if (!link) throw new Error("no Frankfurt CDN link");
    const url = new URL(link);
    expect([url.hostname, url.port]).toEqual(["cdn.example.org", "8443"]);
    expect(url.searchParams.get("sni")).toBe("www.example.org");
    expect(url.searchParams.get("fp")).toBe("firefox");
    // ALPN is a TLS setting: a REALITY link leaves it out, the entry keeps it for TLS formats.
    const view = (await dataOf(patch(entry.id, { port: null }))).entry;
    expect(view.dialed?.alpn).toEqual(["h2"]);
    expect(view.own.port).toBeNull();
    expect(view.dialed?.port).toBe(inbounds.realityVision.port);
    const audited = await auditActions();
    expect(audited.at(-1)?.action).toBe("entry.update");
    expect(JSON.parse(audited.at(-2)?.details ?? "{}")).toMatchObject({
      id: entry.id,
      fingerprint: "firefox",
      port: 8443,
    });
  });

  test("a second entry of one inbound, the order changed, one switched off, one only for yearly customers", async () => {
    const amsterdam = await entryOf("Amsterdam", "kannt-reality");
    const { entry: direct } = await dataOf(
      calls.post(
        {
          nodeId: amsterdam.nodeId,
          inboundTag: "kannt-reality",
          address: "203.0.113.7",
          remark: "Amsterdam direct IP",
        },
        asAdmin,
      ),
    );
    const order = (await entries()).map((entry) => entry.id);
    const moved = [direct.id, ...order.filter((id) => id !== direct.id)];
    expect((await calls.order.post({ ids: moved }, asAdmin)).status).toBe(200);
    expect((await linkNames(monthly))[0]).toBe("Amsterdam direct IP");
    // Every entry once, or the order is refused.
    const partial = await refusalOf(calls.order.post({ ids: moved.slice(1) }, asAdmin));
    expect(partial.status).toBe(400);
    expect(partial.code).toBe("entry_order_incomplete");

    const ws = await entryOf("Amsterdam", "kannt-ws");
    expect((await patch(ws.id, { enabled: false })).status).toBe(200);
    expect(await linkNames(monthly)).not.toContain("Kannt · Amsterdam 2");
    expect((await entryOf("Amsterdam", "kannt-ws")).out).toBe("switchedOff");

    expect((await patch(direct.id, { tariffs: [12] })).status).toBe(200);
    expect(await linkNames(monthly)).not.toContain("Amsterdam direct IP");
    expect((await linkNames(yearly))[0]).toBe("Amsterdam direct IP");
  });

  test("every REALITY entry on chrome switches to firefox in one change, audited once", async () => {
    const before = (await entries()).filter(
      (entry) => entry.dialed?.security === "reality" && entry.dialed.fingerprint === "chrome",
    );
    expect(before.length).toBeGreaterThan(1);
    const { entries: changed } = await dataOf(
      calls.bulk.post(
        {
          where: { security: "reality", fingerprint: "chrome" },
          changes: { fingerprint: "firefox" },
        },
        asAdmin,
      ),
    );
    expect(changed.map((entry) => entry.id).sort()).toEqual(before.map((entry) => entry.id).sort());
    expect(changed.every((entry) => entry.dialed?.fingerprint === "firefox")).toBe(true);
    for (const link of await links(yearly))
      if (new URL(link).searchParams.get("security") === "reality")
        expect(new URL(link).searchParams.get("fp")).toBe("firefox");
    const bulk = (await auditActions()).filter((row) => row.action === "entry.bulk-update");
    expect(bulk).toHaveLength(1);
    // By id too; an id that is no entry refuses the whole change.
    const unknown = await calls.bulk.post(
      { ids: [before[0]?.id ?? 0, 999_999], changes: { enabled: false } },
      asAdmin,
    );
    expect(unknown.status).toBe(404);
    expect((await entries()).find((entry) => entry.id === before[0]?.id)?.enabled).toBe(true);
  });

  test("bad settings are refused with the field named; support operators cannot read or change entries", async () => {
    const entry = await entryOf("Frankfurt", "kannt-reality");
    for (const [body, field] of [
      [{ address: "not a host!" }, "address"],
      [{ sni: "exa mple.com" }, "sni"],
      [{ path: "no-slash" }, "path"],
      [{ tariffs: [2] }, "tariffs"],
      [{ tags: ["has space"] }, "tags"],
    ] as const) {
      const failure = await refusalOf(patch(entry.id, body as never));
      expect(failure.status, JSON.stringify(body)).toBe(400);
      expect(failure.code).toBe("invalid_entry");
      expect(failure.message).toContain(field);
    }
    for (const body of [
      { remark: "two\nlines" },
      { remark: "x".repeat(65) },
      { fingerprint: "netscape" },
      { port: 70000 },
      { alpn: ["spdy"] },
      { port: "443" },
    ]) {
      // Settings the route refuses, some of them of types the client's own would not let through.
      expect((await patch(entry.id, body as never)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await patch(999999, { remark: "x" })).status).toBe(404);
    expect((await calls.get(asSupport)).status).toBe(403);
    expect((await patch(entry.id, { remark: "x" }, asSupport)).status).toBe(403);
  });

  test("a REALITY entry disguised as a Russian site or an Apple/iCloud/Microsoft name carries a warning", async () => {
    const entry = await entryOf("Frankfurt", "kannt-reality");
    const warningFor = async (sni: string) => (await dataOf(patch(entry.id, { sni }))).entry.warning;
    expect(await warningFor("ya.ru")).toBe("russianTarget");
    expect(await warningFor("госуслуги.рф")).toBe("russianTarget");
    expect(await warningFor("www.apple.com")).toBe("abusedTarget");
    expect(await warningFor("swdist.apple.com")).toBe("abusedTarget");
    expect(await warningFor("www.microsoft.com")).toBe("abusedTarget");
    expect(await warningFor("www.example.org")).toBeNull();
    // Not REALITY: the name is a real certificate's, nothing to warn of.
    const ws = await entryOf("Amsterdam", "kannt-ws");
    expect((await dataOf(patch(ws.id, { sni: "ya.ru" }))).entry.warning).toBeNull();
  });

  test("a node whose core is down, that is silent, or that does not apply the allow-list is listed nowhere", async () => {
    const names = async () => (await linkNames(yearly)).filter((name) => name.includes("Helsinki"));
    expect(await names()).toHaveLength(1);
    await database.run("UPDATE vpn_nodes SET core_state = 'down' WHERE name = 'Helsinki'");
    expect(await names()).toHaveLength(0);
    expect((await entryOf("Helsinki", "kannt-reality")).out).toBe("coreDown");
    await database.run("UPDATE vpn_nodes SET core_state = 'up', last_seen_at = ? WHERE name = 'Helsinki'", [
      Date.now() - 4 * 60_000,
    ]);
    expect(await names()).toHaveLength(0);
    expect((await entryOf("Helsinki", "kannt-reality")).out).toBe("silent");
    await database.run(
      "UPDATE vpn_nodes SET last_seen_at = ?, applied_version = (SELECT MAX(version) FROM access_changes) WHERE name = 'Helsinki'",
      [Date.now()],
    );
    await database.run("INSERT INTO access_changes (user_id, node_tag, changed_at) VALUES (NULL, NULL, ?)", [
      Date.now() - 6 * 60_000,
    ]);
    expect((await entryOf("Helsinki", "kannt-reality")).out).toBe("notSyncing");
    expect(await names()).toHaveLength(0);
  });
});
