import { describe, expect, test } from "vitest";
import type { NodeView } from "../../../../bff/modules/access/nodes/panel-nodes";
import { makeTestApp, postJson, request } from "../../../helpers/app";
import { sampleReport } from "../../../helpers/nodes";
import { bearer, makeOperator, tokensFor } from "../../../helpers/operators";

/** DESIGN §8: a rotated key says so, to the agent that still uses it and to the panel. */
type Failure = { success: false; error: { code: string; message: string } };
type Added = { node: NodeView; key: string };

async function panel() {
  const { app, context } = await makeTestApp();
  const admin = await makeOperator(context, "keys.admin", "admin");
  const asAdmin = bearer((await tokensFor(app, admin.username, admin.password)).accessToken);
  const post = async (path: string, body: unknown = {}) => {
    const response = await app.handle(postJson(path, body, asAdmin));
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as Added;
  };
  const listed = async (name: string) => {
    const response = await app.handle(request("/api/panel/nodes", { headers: asAdmin }));
    return ((await response.json()) as { nodes: NodeView[] }).nodes.find((node) => node.name === name);
  };
  const nodeCalls = (key: string) => {
    const headers = { authorization: `Bearer ${key}` };
    return [
      request("/api/nodes/allowlist", { headers }),
      postJson("/api/nodes/report", sampleReport, headers),
      postJson("/api/nodes/events", { traffic: [], connections: [] }, headers),
    ];
  };
  return { app, post, listed, nodeCalls };
}

const rotatedMessage =
  /^This node's key was replaced on [A-Za-z0-9 ,]+, \d{2}:\d{2} UTC: put the new key in NODE_KEY\.$/;

describe("a node's replaced key", () => {
  test("is refused with 401 node_key_rotated saying when, on every call; the node notes when and the panel shows it", async () => {
    const { app, post, listed, nodeCalls } = await panel();
    const { node, key: first } = await post("/api/panel/nodes", { name: "de-fra-1" });
    expect((await listed("de-fra-1"))?.oldKeyLastUsedAt).toBeNull();
    const rotatedAt = new Date();
    const { key: second } = await post(`/api/panel/nodes/${node.id}/rotateKey`);
    // Nobody has used the old key since: nothing to show.
    expect((await listed("de-fra-1"))?.oldKeyLastUsedAt).toBeNull();

    const before = Date.now();
    for (const call of nodeCalls(first)) {
      const response = await app.handle(call);
      expect(response.status).toBe(401);
      const { error } = (await response.json()) as Failure;
      expect(error.code).toBe("node_key_rotated");
      expect(error.message).toMatch(rotatedMessage);
      expect(error.message).toContain(`${rotatedAt.getUTCFullYear()},`);
    }
    const usedAt = Date.parse((await listed("de-fra-1"))?.oldKeyLastUsedAt ?? "");
    expect(usedAt).toBeGreaterThanOrEqual(before);
    expect(usedAt).toBeLessThanOrEqual(Date.now());
    // The new key works; a key that was never this node's is still unknown.
    for (const call of nodeCalls(second)) expect((await app.handle(call)).status).toBe(200);
    const stranger = await app.handle(nodeCalls("node_never_issued")[1] as Request);
    expect(((await stranger.json()) as Failure).error).toEqual({
      code: "node_key_unknown",
      message: "Unknown node key.",
    });

    // Rotated again: only the key it replaced is remembered, and the panel's note starts over.
    const { key: third } = await post(`/api/panel/nodes/${node.id}/rotateKey`);
    expect((await listed("de-fra-1"))?.oldKeyLastUsedAt).toBeNull();
    const [forgotten, replaced] = [
      await app.handle(nodeCalls(first)[1] as Request),
      await app.handle(nodeCalls(second)[1] as Request),
    ];
    expect(((await forgotten.json()) as Failure).error.code).toBe("node_key_unknown");
    expect(((await replaced.json()) as Failure).error.code).toBe("node_key_rotated");
    expect((await listed("de-fra-1"))?.oldKeyLastUsedAt).not.toBeNull();
    expect((await app.handle(nodeCalls(third)[1] as Request)).status).toBe(200);
  });
});
