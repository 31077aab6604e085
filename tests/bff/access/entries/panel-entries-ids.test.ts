import { describe, expect, test } from "vitest";
import { apiOf, dataOf, staffOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { reportedNode, sampleReport } from "../../../helpers/nodes";
import { makeOperator, tokensFor } from "../../../helpers/operators";

/**
 * The panel's entry calls take ids in their JSON bodies as numbers, as the typed client
 * sends them: a new entry's node, the whole order, and the entries one change reaches.
 */
const { app, context, clock } = await makeTestApp();
const admin = await makeOperator(context, "entries.admin", "admin");
const asAdmin = staffOf((await tokensFor(app, admin.username, admin.password)).accessToken);
const { entries: calls } = apiOf(app).panel;
await reportedNode(
  context.database,
  {
    name: "nl-ams-1",
    host: "nl1.example.net",
    inbounds: [...sampleReport.inbounds, { ...sampleReport.inbounds[0], tag: "kannt-reality-2", port: 8443 }],
  },
  clock.now(),
);

async function entries() {
  return (await dataOf(calls.get(asAdmin))).entries;
}

describe("ids in the panel's entry calls", () => {
  test("a new entry names its node by number", async () => {
    const [first] = await entries();
    if (!first) throw new Error("an entry expected");
    const added = await calls.post({ nodeId: first.nodeId, inboundTag: "kannt-reality" }, asAdmin);
    expect(added.status).toBe(200);
    expect(added.data?.entry.inboundTag).toBe("kannt-reality");
  });

  test("the whole order is a list of numbers, and is kept", async () => {
    const ids = (await entries()).map((entry) => entry.id).reverse();
    const moved = await calls.order.post({ ids }, asAdmin);
    expect(moved.status).toBe(200);
    expect((await entries()).map((entry) => entry.id)).toEqual(ids);
  });

  test("one change reaches exactly the entries named by number", async () => {
    const [first, second, third] = await entries();
    if (!first || !second || !third) throw new Error("three entries expected");
    const changed = await calls.bulk.post(
      // The route's fingerprint schema is a union built from a list, which Eden reads as `never`.
      { ids: [first.id, third.id], changes: { fingerprint: "firefox" } },
      asAdmin,
    );
    expect(changed.status).toBe(200);
    expect(changed.data?.entries.map((entry) => entry.id).sort()).toEqual([first.id, third.id].sort());
    const fingerprints = Object.fromEntries(
      (await entries()).map((entry) => [entry.id, entry.dialed?.fingerprint]),
    );
    expect([fingerprints[first.id], fingerprints[second.id], fingerprints[third.id]]).toEqual([
      "firefox",
      "chrome",
      "firefox",
    ]);
    const byNode = await calls.bulk.post(
      { where: { nodeId: first.nodeId, fingerprint: "firefox" }, changes: { enabled: false } },
      asAdmin,
    );
    expect(byNode.data?.entries).toHaveLength(2);
  });
});
