import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import type { ProbeResult } from "../../../../agent/contract/probe-api";
import { runOperatorCommand } from "../../../../bff/operator-commands";
import { apiOf, dataOf, refusalOf, staffOf } from "../../../helpers/api";
import { makeTestApp, request } from "../../../helpers/app";
import { allowList, reportedNode, subscribedDeviceToken } from "../../../helpers/nodes";
import { makeOperator, tokensFor } from "../../../helpers/operators";
import { inbounds } from "../../../helpers/subscription-inbounds";

/** DESIGN §8: probe agents dial every entry from the customers' networks; what fails leaves every answer. */
const { app, context } = await makeTestApp();
const { database, clock } = context;
const admin = await makeOperator(context, "probes.admin", "admin");
const asAdmin = staffOf((await tokensFor(app, admin.username, admin.password)).accessToken);
const api = apiOf(app);

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

const entriesCall = (headers: Record<string, string> = asProbe) => api.probes.entries.get({ headers });
async function entriesForProbe(headers = asProbe) {
  const call = entriesCall(headers);
  const entries = await dataOf(call);
  expect((await call).response.headers.get("cache-control")).toBe("no-store");
  return entries;
}
const report = (results: ProbeResult[], headers = asProbe) =>
  api.probes.results.post({ results }, { headers });

async function panelEntries() {
  return (await dataOf(api.panel.entries.get(asAdmin))).entries;
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
    expect(await refusalOf(entriesCall({}))).toMatchObject({ status: 401, code: "probe_key_missing" });
    expect(await refusalOf(entriesCall(probeHeaders("probe_nope")))).toMatchObject({
      status: 401,
      code: "probe_key_unknown",
    });
    // A node's key is no probe's.
    expect((await entriesCall(asNode)).status).toBe(401);
    expect(await refusalOf(entriesCall(probeHeaders(probeKeyMsk, randomUUID())))).toMatchObject({
      status: 409,
      code: "probe_agent_conflict",
    });
    // An id as text, a verdict that is no boolean, an error past its length.
    for (const results of [
      [{ entryId: "1", ok: true }],
      [{ entryId: 1, ok: "yes" }],
      [{ entryId: 1, ok: false, error: "x".repeat(301) }],
    ]) {
      expect((await report(results as never)).status, JSON.stringify(results)).toBe(400);
    }
    // Results for entries that are gone are dropped, not refused.
    expect((await report([{ entryId: 999_999, ok: false, error: "timed out" }])).status).toBe(200);
    // A probe whose core cannot dial an entry as apps do gives no verdict: the entry stays in.
    const [reality] = (await entriesForProbe()).entries;
    if (!reality) throw new Error("an entry expected");
    const unsupported: ProbeResult = {
      entryId: reality.id,
      ok: false,
      error: "REALITY needs CORE=xray",
      unsupported: true,
    };
    for (let round = 0; round < 3; round++) expect((await report([unsupported])).status).toBe(200);
    expect((await panelEntries()).find((entry) => entry.id === reality.id)).toMatchObject({
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

    const [probe] = (await dataOf(api.panel.probes.get(asAdmin))).probes;
    expect(probe).toMatchObject({ name: "msk-mts", reporting: true });
    const { credential } = await entriesForProbe();
    const disabled = await api.panel.probes({ id: probe?.id ?? 0 }).disable.post({}, asAdmin);
    expect(disabled.status).toBe(200);
    expect(await refusalOf(entriesCall())).toMatchObject({ status: 403, code: "probe_disabled" });
    const list = await allowList(app, asNode);
    expect(list.entries.some((entry) => entry.id === credential)).toBe(false);
    const actions = await database.all<{ action: string }>(
      "SELECT action FROM audit_log WHERE action LIKE 'probe.%' ORDER BY id",
    );
    expect(actions.map((row) => row.action)).toEqual(["probe.create", "probe.disable"]);
  });

  test("the panel adds a probe and shows its key once; a taken or bad name is refused", async () => {
    const addProbe = (name: string) => api.panel.probes.post({ name }, asAdmin);
    const added = addProbe("ala-beeline");
    expect((await added).status).toBe(200);
    expect((await added).response.headers.get("cache-control")).toBe("no-store");
    const { key } = await dataOf(added);
    expect(key).toMatch(/^probe_/);
    expect((await entriesCall(probeHeaders(key))).status).toBe(200);
    expect(await refusalOf(addProbe("ALA-beeline"))).toMatchObject({ status: 409, code: "probe_name_taken" });
    expect(await refusalOf(addProbe("has space"))).toMatchObject({ status: 400, code: "invalid_probe_name" });
  });
});
