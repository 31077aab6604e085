import { describe, expect, test } from "vitest";
import type { EntryView } from "../../../../bff/modules/access/entries/entry-view";
import { makeTestApp, postJson, request } from "../../../helpers/app";
import { nodeHeaders, reportedNode, sampleReport, subscribedDeviceToken } from "../../../helpers/nodes";
import { bearer, makeOperator, tokensFor } from "../../../helpers/operators";
import { inbounds } from "../../../helpers/subscription-inbounds";

/** DESIGN §8: what a subscription lists is the operator's entries, changed from the panel. */
const { app, context } = await makeTestApp();
const { database, clock } = context;
const admin = await makeOperator(context, "entries.admin", "admin");
const support = await makeOperator(context, "entries.support", "support");
const asAdmin = bearer((await tokensFor(app, admin.username, admin.password)).accessToken);
const asSupport = bearer((await tokensFor(app, support.username, support.password)).accessToken);

type Failure = { success: false; error: { code: string; message: string } };

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

async function entries(): Promise<EntryView[]> {
  const response = await app.handle(request("/api/panel/entries", { headers: asAdmin }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { entries: EntryView[] }).entries;
}
const entryOf = async (node: string, tag: string) => {
  const found = (await entries()).find((entry) => entry.nodeName === node && entry.inboundTag === tag);
  if (!found) throw new Error(`no entry for ${node}/${tag}`);
  return found;
};
const send = (method: string, path: string, body: unknown, headers = asAdmin) =>
  app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
  );

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
      const response = await app.handle(
        postJson("/api/nodes/report", { ...sampleReport, host: "fi.example.com" }, headers),
      );
      expect(response.status).toBe(200);
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
    const response = await send("PATCH", `/api/panel/entries/${entry.id}`, {
      address: "cdn.example.org",
      port: 8443,
      sni: "www.example.org",
      fingerprint: "firefox",
      alpn: ["h2"],
      remark: "Frankfurt CDN",
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const link = (await links(monthly)).find((item) => item.endsWith(encodeURIComponent("Frankfurt CDN")));
    if (!link) throw new Error("no Frankfurt CDN link");
    const url = new URL(link);
    expect([url.hostname, url.port]).toEqual(["cdn.example.org", "8443"]);
    expect(url.searchParams.get("sni")).toBe("www.example.org");
    expect(url.searchParams.get("fp")).toBe("firefox");
    // ALPN is a TLS setting: a REALITY link leaves it out, the entry keeps it for TLS formats.
    const back = await send("PATCH", `/api/panel/entries/${entry.id}`, { port: null });
    const view = ((await back.json()) as { entry: EntryView }).entry;
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
    const added = await send("POST", "/api/panel/entries", {
      nodeId: amsterdam.nodeId,
      inboundTag: "kannt-reality",
      address: "203.0.113.7",
      remark: "Amsterdam direct IP",
    });
    expect(added.status, await added.clone().text()).toBe(200);
    const direct = ((await added.json()) as { entry: EntryView }).entry;
    const order = (await entries()).map((entry) => entry.id);
    const moved = [direct.id, ...order.filter((id) => id !== direct.id)];
    expect((await send("POST", "/api/panel/entries/order", { ids: moved })).status).toBe(200);
    expect((await linkNames(monthly))[0]).toBe("Amsterdam direct IP");
    // Every entry once, or the order is refused.
    const partial = await send("POST", "/api/panel/entries/order", { ids: moved.slice(1) });
    expect(partial.status).toBe(400);
    expect(((await partial.json()) as Failure).error.code).toBe("entry_order_incomplete");

    const ws = await entryOf("Amsterdam", "kannt-ws");
    expect((await send("PATCH", `/api/panel/entries/${ws.id}`, { enabled: false })).status).toBe(200);
    expect(await linkNames(monthly)).not.toContain("Kannt · Amsterdam 2");
    expect((await entryOf("Amsterdam", "kannt-ws")).out).toBe("switchedOff");

    expect((await send("PATCH", `/api/panel/entries/${direct.id}`, { tariffs: [12] })).status).toBe(200);
    expect(await linkNames(monthly)).not.toContain("Amsterdam direct IP");
    expect((await linkNames(yearly))[0]).toBe("Amsterdam direct IP");
  });

  test("every REALITY entry on chrome switches to firefox in one change, audited once", async () => {
    const before = (await entries()).filter(
      (entry) => entry.dialed?.security === "reality" && entry.dialed.fingerprint === "chrome",
    );
    expect(before.length).toBeGreaterThan(1);
    const response = await send("POST", "/api/panel/entries/bulk", {
      where: { security: "reality", fingerprint: "chrome" },
      changes: { fingerprint: "firefox" },
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const changed = ((await response.json()) as { entries: EntryView[] }).entries;
    expect(changed.map((entry) => entry.id).sort()).toEqual(before.map((entry) => entry.id).sort());
    expect(changed.every((entry) => entry.dialed?.fingerprint === "firefox")).toBe(true);
    for (const link of await links(yearly))
      if (new URL(link).searchParams.get("security") === "reality")
        expect(new URL(link).searchParams.get("fp")).toBe("firefox");
    const bulk = (await auditActions()).filter((row) => row.action === "entry.bulk-update");
    expect(bulk).toHaveLength(1);
    // By id too; an id that is no entry refuses the whole change.
    const unknown = await send("POST", "/api/panel/entries/bulk", {
      ids: [before[0]?.id, 999_999],
      changes: { enabled: false },
    });
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
      const response = await send("PATCH", `/api/panel/entries/${entry.id}`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const failure = (await response.json()) as Failure;
      expect(failure.error.code).toBe("invalid_entry");
      expect(failure.error.message).toContain(field);
    }
    for (const body of [
      { remark: "two\nlines" },
      { remark: "x".repeat(65) },
      { fingerprint: "netscape" },
      { port: 70000 },
      { alpn: ["spdy"] },
      { port: "443" },
    ]) {
      const response = await send("PATCH", `/api/panel/entries/${entry.id}`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await send("PATCH", "/api/panel/entries/999999", { remark: "x" })).status).toBe(404);
    expect((await app.handle(request("/api/panel/entries", { headers: asSupport }))).status).toBe(403);
    expect((await send("PATCH", `/api/panel/entries/${entry.id}`, { remark: "x" }, asSupport)).status).toBe(
      403,
    );
  });

  test("a REALITY entry disguised as a Russian site or an Apple/iCloud/Microsoft name carries a warning", async () => {
    const entry = await entryOf("Frankfurt", "kannt-reality");
    const warningFor = async (sni: string) => {
      const response = await send("PATCH", `/api/panel/entries/${entry.id}`, { sni });
      return ((await response.json()) as { entry: EntryView }).entry.warning;
    };
    expect(await warningFor("ya.ru")).toBe("russianTarget");
    expect(await warningFor("госуслуги.рф")).toBe("russianTarget");
    expect(await warningFor("www.apple.com")).toBe("abusedTarget");
    expect(await warningFor("swdist.apple.com")).toBe("abusedTarget");
    expect(await warningFor("www.microsoft.com")).toBe("abusedTarget");
    expect(await warningFor("www.example.org")).toBeNull();
    // Not REALITY: the name is a real certificate's, nothing to warn of.
    const ws = await entryOf("Amsterdam", "kannt-ws");
    const response = await send("PATCH", `/api/panel/entries/${ws.id}`, { sni: "ya.ru" });
    expect(((await response.json()) as { entry: EntryView }).entry.warning).toBeNull();
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
