import { describe, expect, test } from "vitest";
import { apiOf, dataOf, refusalOf, staffOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { sampleReport } from "../../../helpers/nodes";
import { makeOperator, tokensFor } from "../../../helpers/operators";

/** DESIGN §8: a rotated key says so, to the agent that still uses it and to the panel. */
async function panel() {
  const { app, context } = await makeTestApp();
  const api = apiOf(app);
  const admin = await makeOperator(context, "keys.admin", "admin");
  const asAdmin = staffOf((await tokensFor(app, admin.username, admin.password)).accessToken);
  const add = (name: string) => dataOf(api.panel.nodes.post({ name }, asAdmin));
  const rotateKey = (id: number) => dataOf(api.panel.nodes({ id }).rotateKey.post({}, asAdmin));
  const listed = async (name: string) =>
    (await dataOf(api.panel.nodes.get(asAdmin))).nodes.find((node) => node.name === name);
  const nodeCalls = (key: string) => {
    const headers = { authorization: `Bearer ${key}` };
    return [
      () => api.nodes.allowlist.get({ headers }),
      () => api.nodes.report.post(sampleReport, { headers }),
      () => api.nodes.events.post({ traffic: [], connections: [] }, { headers }),
    ] as const;
  };
  return { add, rotateKey, listed, nodeCalls };
}

const rotatedMessage =
  /^This node's key was replaced on [A-Za-z0-9 ,]+, \d{2}:\d{2} UTC: put the new key in NODE_KEY\.$/;

describe("a node's replaced key", () => {
  test("is refused with 401 node_key_rotated saying when, on every call; the node notes when and the panel shows it", async () => {
    const { add, rotateKey, listed, nodeCalls } = await panel();
    const { node, key: first } = await add("de-fra-1");
    expect((await listed("de-fra-1"))?.oldKeyLastUsedAt).toBeNull();
    const rotatedAt = new Date();
    const { key: second } = await rotateKey(node.id);
    // Nobody has used the old key since: nothing to show.
    expect((await listed("de-fra-1"))?.oldKeyLastUsedAt).toBeNull();

    const before = Date.now();
    for (const call of nodeCalls(first)) {
      const error = await refusalOf(call());
      expect(error.status).toBe(401);
      expect(error.code).toBe("node_key_rotated");
      expect(error.message).toMatch(rotatedMessage);
      expect(error.message).toContain(`${rotatedAt.getUTCFullYear()},`);
    }
    const usedAt = Date.parse((await listed("de-fra-1"))?.oldKeyLastUsedAt ?? "");
    expect(usedAt).toBeGreaterThanOrEqual(before);
    expect(usedAt).toBeLessThanOrEqual(Date.now());
    // The new key works; a key that was never this node's is still unknown.
    for (const call of nodeCalls(second)) expect((await call()).status).toBe(200);
    const report = (key: string) => nodeCalls(key)[1]();
    const { status: _, ...stranger } = await refusalOf(report("node_never_issued"));
    expect(stranger).toEqual({ code: "node_key_unknown", message: "Unknown node key." });

    // Rotated again: only the key it replaced is remembered, and the panel's note starts over.
    const { key: third } = await rotateKey(node.id);
    expect((await listed("de-fra-1"))?.oldKeyLastUsedAt).toBeNull();
    const [forgotten, replaced] = [await refusalOf(report(first)), await refusalOf(report(second))];
    expect(forgotten.code).toBe("node_key_unknown");
    expect(replaced.code).toBe("node_key_rotated");
    expect((await listed("de-fra-1"))?.oldKeyLastUsedAt).not.toBeNull();
    expect((await report(third)).status).toBe(200);
  });
});
