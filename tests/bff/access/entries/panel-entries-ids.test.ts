import { describe, expect, test } from "vitest";
import { makeTestApp, postJson, request } from "../../../helpers/app";
import { reportedNode, sampleReport } from "../../../helpers/nodes";
import { bearer, makeOperator, tokensFor } from "../../../helpers/operators";

/**
 * The panel's entry calls take ids in their JSON bodies as numbers, as the typed client
 * sends them: a new entry's node, the whole order, and the entries one change reaches.
 */
const { app, context, clock } = await makeTestApp();
const admin = await makeOperator(context, "entries.admin", "admin");
const asAdmin = bearer((await tokensFor(app, admin.username, admin.password)).accessToken);
await reportedNode(
  context.database,
  {
    name: "nl-ams-1",
    host: "nl1.example.net",
    inbounds: [...sampleReport.inbounds, { ...sampleReport.inbounds[0], tag: "kannt-reality-2", port: 8443 }],
  },
  clock.now(),
);

type Entry = { id: number; nodeId: number; inboundTag: string; dialed: { fingerprint: string | null } };
const post = async (path: string, body: unknown) => {
  const response = await app.handle(postJson(path, body, asAdmin));
  return { status: response.status, body: (await response.json()) as { entries?: Entry[]; entry?: Entry } };
};
async function entries(): Promise<Entry[]> {
  const response = await app.handle(request("/api/panel/entries", { headers: asAdmin }));
  return ((await response.json()) as { entries: Entry[] }).entries;
}

describe("ids in the panel's entry calls", () => {
  test("a new entry names its node by number", async () => {
    const [first] = await entries();
    const added = await post("/api/panel/entries", { nodeId: first?.nodeId, inboundTag: "kannt-reality" });
    expect(added.status).toBe(200);
    expect(added.body.entry?.inboundTag).toBe("kannt-reality");
  });

  test("the whole order is a list of numbers, and is kept", async () => {
    const ids = (await entries()).map((entry) => entry.id).reverse();
    const moved = await post("/api/panel/entries/order", { ids });
    expect(moved.status).toBe(200);
    expect((await entries()).map((entry) => entry.id)).toEqual(ids);
  });

  test("one change reaches exactly the entries named by number", async () => {
    const [first, second, third] = await entries();
    const changed = await post("/api/panel/entries/bulk", {
      ids: [first?.id, third?.id],
      changes: { fingerprint: "firefox" },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.entries?.map((entry) => entry.id).sort()).toEqual([first?.id, third?.id].sort());
    const fingerprints = Object.fromEntries(
      (await entries()).map((entry) => [entry.id, entry.dialed.fingerprint]),
    );
    expect([
      fingerprints[first?.id ?? 0],
      fingerprints[second?.id ?? 0],
      fingerprints[third?.id ?? 0],
    ]).toEqual(["firefox", "chrome", "firefox"]);
    const byNode = await post("/api/panel/entries/bulk", {
      where: { nodeId: first?.nodeId, fingerprint: "firefox" },
      changes: { enabled: false },
    });
    expect(byNode.body.entries).toHaveLength(2);
  });
});
