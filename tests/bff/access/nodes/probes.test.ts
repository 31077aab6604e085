import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import type { ProbeEntries } from "../../../../agent/contract/probe-api";
import type { EntryView } from "../../../../bff/modules/access/entries/entry-view";
import { runOperatorCommand } from "../../../../bff/operator-commands";
import { makeTestApp, postJson, request } from "../../../helpers/app";
import { allowList, reportedNode, subscribedDeviceToken } from "../../../helpers/nodes";
import { bearer, makeOperator, tokensFor } from "../../../helpers/operators";
import { inbounds } from "../../../helpers/subscription-inbounds";

/** DESIGN §8: probe agents dial every entry from the customers' networks; what fails leaves every answer. */
const { app, context } = await makeTestApp();
const { database, clock } = context;
const admin = await makeOperator(context, "probes.admin", "admin");
const asAdmin = bearer((await tokensFor(app, admin.username, admin.password)).accessToken);

type Failure = { success: false; error: { code: string; message: string } };

const nodeKey = await reportedNode(
  database,
  { name: "Amsterdam", host: "nl.example.com", inbounds: [inbounds.realityVision, inbounds.tlsWs] },
  clock.now(),
);
const asNode = { authorization: `Bearer ${nodeKey}` };

/** The key `npm run operator -- probe <name>` prints, last on its line. */
async function probeKey(name: string): Promise<string> {
  const result = await runOperatorCommand(database, ["probe", name], clock.now());
  expect(result.exitCode, result.output).toBe(0);
  return result.output.split(" ").at(-1) ?? "";
}

const instance = randomUUID();
const probeHeaders = (key: string, agent = instance) => ({
  authorization: `Bearer ${key}`,
  "x-agent-instance": agent,
});
const probeKeyMsk = await probeKey("msk-mts");
const asProbe = probeHeaders(probeKeyMsk);

async function entriesForProbe(headers = asProbe): Promise<ProbeEntries> {
  const response = await app.handle(request("/api/probes/entries", { headers }));
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return (await response.json()) as ProbeEntries;
}
const report = (
  results: { entryId: number; ok: boolean; error?: string; latencyMs?: number }[],
  headers = asProbe,
) => app.handle(postJson("/api/probes/results", { results }, headers));

async function panelEntries(): Promise<EntryView[]> {
  const response = await app.handle(request("/api/panel/entries", { headers: asAdmin }));
  return ((await response.json()) as { entries: EntryView[] }).entries;
}

const token = await subscribedDeviceToken(app, database, "probes-customer@example.com");
/** How many servers each format lists for the customer. */
async function serversInEveryFormat(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const format of ["base64", "singbox", "clash"]) {
    const body = await (await app.handle(request(`/sub/${token}?format=${format}`))).text();
    counts[format] =
      format === "base64"
        ? Buffer.from(body, "base64")
            .toString("utf8")
            .split("\n")
            .filter((link) => !link.includes("@0.0.0.0:")).length
        : (body.match(/nl\.example\.com/g) ?? []).length;
  }
  return counts;
}

describe("probe agents", () => {
  test("a probe's key from the CLI gets every entry as a client dials it, with its own credential on every node", async () => {
    const { credential, entries } = await entriesForProbe();
    expect(entries.map((entry) => [entry.address, entry.inbound.tag])).toEqual([
      ["nl.example.com", "kannt-reality"],
      ["nl.example.com", "kannt-ws"],
    ]);
    expect(entries[0]?.inbound).toMatchObject({
      security: "reality",
      publicKey: inbounds.realityVision.publicKey,
    });
    const list = await allowList(app, asNode);
    expect(list.full).toBe(true);
    expect(list.entries.find((entry) => entry.id === credential)?.tag).toMatch(/^kannt-probe-/);
  });

  test("refused: no key, an unknown key, a second agent on one key, a bad result", async () => {
    const noKey = await app.handle(request("/api/probes/entries"));
    expect([noKey.status, ((await noKey.json()) as Failure).error.code]).toEqual([401, "probe_key_missing"]);
    const unknown = await app.handle(request("/api/probes/entries", { headers: probeHeaders("probe_nope") }));
    expect([unknown.status, ((await unknown.json()) as Failure).error.code]).toEqual([
      401,
      "probe_key_unknown",
    ]);
    // A node's key is no probe's.
    expect((await app.handle(request("/api/probes/entries", { headers: asNode }))).status).toBe(401);
    const second = await app.handle(
      request("/api/probes/entries", { headers: probeHeaders(probeKeyMsk, randomUUID()) }),
    );
    expect([second.status, ((await second.json()) as Failure).error.code]).toEqual([
      409,
      "probe_agent_conflict",
    ]);
    for (const results of [
      [{ entryId: "1", ok: true }],
      [{ entryId: 1, ok: "yes" }],
      [{ entryId: 1, ok: false, error: "x".repeat(301) }],
    ]) {
      const response = await app.handle(postJson("/api/probes/results", { results }, asProbe));
      expect(response.status, JSON.stringify(results)).toBe(400);
    }
    // Results for entries that are gone are dropped, not refused.
    expect((await report([{ entryId: 999_999, ok: false, error: "timed out" }])).status).toBe(200);
    // A probe whose core cannot dial an entry as apps do gives no verdict: the entry stays in.
    const [reality] = (await entriesForProbe()).entries;
    for (let round = 0; round < 3; round++) {
      const response = await app.handle(
        postJson(
          "/api/probes/results",
          {
            results: [
              { entryId: reality?.id, ok: false, error: "REALITY needs CORE=xray", unsupported: true },
            ],
          },
          asProbe,
        ),
      );
      expect(response.status).toBe(200);
    }
    expect((await panelEntries()).find((entry) => entry.id === reality?.id)).toMatchObject({
      out: null,
      probes: [],
    });
  });

  test("two failures in a row take an entry out of every format, two successes put it back", async () => {
    const [reality, ws] = (await entriesForProbe()).entries;
    if (!reality || !ws) throw new Error("two entries expected");
    expect(await serversInEveryFormat()).toEqual({ base64: 2, singbox: 2, clash: 2 });

    await report([
      { entryId: reality.id, ok: false, error: "connection reset" },
      { entryId: ws.id, ok: true, latencyMs: 80 },
    ]);
    // One failure may be a lost packet: the entry stays.
    expect(await serversInEveryFormat()).toEqual({ base64: 2, singbox: 2, clash: 2 });
    await report([
      { entryId: reality.id, ok: false, error: "timed out after 10 s" },
      { entryId: ws.id, ok: true, latencyMs: 75 },
    ]);
    expect(await serversInEveryFormat()).toEqual({ base64: 1, singbox: 1, clash: 1 });

    const down = (await panelEntries()).find((entry) => entry.id === reality.id);
    expect(down?.out).toBe("probeDown");
    expect(down?.probes).toEqual([
      expect.objectContaining({ probe: "msk-mts", up: false, lastError: "timed out after 10 s" }),
    ]);
    const metrics = await context.metrics.registry.metrics();
    expect(metrics).toContain(
      `kannt_entry_up{entry="Amsterdam/kannt-reality#${reality.id}",probe="msk-mts"} 0`,
    );
    expect(metrics).toContain(`kannt_entry_up{entry="Amsterdam/kannt-ws#${ws.id}",probe="msk-mts"} 1`);
    expect(metrics).toContain(`kannt_entry_published{entry="Amsterdam/kannt-reality#${reality.id}"} 0`);

    // The probe keeps dialing it: a blocked entry is how it comes back.
    expect((await entriesForProbe()).entries.map((entry) => entry.id)).toContain(reality.id);
    await report([{ entryId: reality.id, ok: true, latencyMs: 90 }]);
    expect((await serversInEveryFormat()).base64).toBe(1);
    await report([{ entryId: reality.id, ok: true, latencyMs: 91 }]);
    expect(await serversInEveryFormat()).toEqual({ base64: 2, singbox: 2, clash: 2 });
    const back = (await panelEntries()).find((entry) => entry.id === reality.id);
    expect(back?.out).toBeNull();
    expect(back?.probes[0]).toMatchObject({ up: true, latencyMs: 91, lastError: "timed out after 10 s" });
  });

  test("a probe that stops reporting no longer counts after 15 minutes; a disabled probe's credential leaves the nodes", async () => {
    const [reality] = (await entriesForProbe()).entries;
    if (!reality) throw new Error("an entry expected");
    await report([{ entryId: reality.id, ok: false, error: "refused" }]);
    await report([{ entryId: reality.id, ok: false, error: "refused" }]);
    expect((await serversInEveryFormat()).base64).toBe(1);
    await database.run("UPDATE entry_checks SET checked_at = ?", [Date.now() - 16 * 60_000]);
    expect((await serversInEveryFormat()).base64).toBe(2);

    const listed = await app.handle(request("/api/panel/probes", { headers: asAdmin }));
    const probe = ((await listed.json()) as { probes: { id: number; name: string; reporting: boolean }[] })
      .probes[0];
    expect(probe).toMatchObject({ name: "msk-mts", reporting: true });
    const { credential } = await entriesForProbe();
    const disabled = await app.handle(postJson(`/api/panel/probes/${probe?.id}/disable`, {}, asAdmin));
    expect(disabled.status).toBe(200);
    const refused = await app.handle(request("/api/probes/entries", { headers: asProbe }));
    expect([refused.status, ((await refused.json()) as Failure).error.code]).toEqual([403, "probe_disabled"]);
    const list = await allowList(app, asNode);
    expect(list.entries.some((entry) => entry.id === credential)).toBe(false);
    const actions = await database.all<{ action: string }>(
      "SELECT action FROM audit_log WHERE action LIKE 'probe.%' ORDER BY id",
    );
    expect(actions.map((row) => row.action)).toEqual(["probe.create", "probe.disable"]);
  });

  test("the panel adds a probe and shows its key once; a taken or bad name is refused", async () => {
    const added = await app.handle(postJson("/api/panel/probes", { name: "ala-beeline" }, asAdmin));
    expect(added.status).toBe(200);
    expect(added.headers.get("cache-control")).toBe("no-store");
    const { key } = (await added.json()) as { key: string };
    expect(key).toMatch(/^probe_/);
    expect((await app.handle(request("/api/probes/entries", { headers: probeHeaders(key) }))).status).toBe(
      200,
    );
    const taken = await app.handle(postJson("/api/panel/probes", { name: "ALA-beeline" }, asAdmin));
    expect([taken.status, ((await taken.json()) as Failure).error.code]).toEqual([409, "probe_name_taken"]);
    const bad = await app.handle(postJson("/api/panel/probes", { name: "has space" }, asAdmin));
    expect([bad.status, ((await bad.json()) as Failure).error.code]).toEqual([400, "invalid_probe_name"]);
  });
});
