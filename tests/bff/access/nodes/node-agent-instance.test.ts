import type { Static } from "elysia";
import { describe, expect, test } from "vitest";
import { listNodes } from "../../../../bff/modules/access/nodes/panel-nodes";
import { withPeerAddress } from "../../../../bff/platform/client-address";
import type { errorResponse } from "../../../../bff/platform/schemas";
import { makeTestApp, postJson, request } from "../../../helpers/app";
import { customerWithDevice, nodeHeaders, sampleReport } from "../../../helpers/nodes";

/**
 * DESIGN §8: one node key is one agent; a second one is refused, not merged. The calls are raw
 * requests: each comes from a socket peer address, which the typed client cannot set.
 */
type Failure = Static<typeof errorResponse>;

const first = "6f1d4c2e-3b5a-4e8f-9c7d-0a1b2c3d4e5f";
const second = "0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b";

async function nodeWithAgents(name: string) {
  const testApp = await makeTestApp();
  const { app, context } = testApp;
  const { authorization } = await nodeHeaders(context, name);
  const headersOf = (instance?: string) => ({
    authorization,
    ...(instance === undefined ? {} : { "x-agent-instance": instance }),
  });
  const calls = (instance: string | undefined, from = "203.0.113.10") => ({
    report: (body: Partial<typeof sampleReport> = {}) =>
      app.handle(
        withPeerAddress(
          postJson("/api/nodes/report", { ...sampleReport, ...body }, headersOf(instance)),
          from,
        ),
      ),
    events: (body: unknown) =>
      app.handle(withPeerAddress(postJson("/api/nodes/events", body, headersOf(instance)), from)),
    allowList: () =>
      app.handle(withPeerAddress(request("/api/nodes/allowlist", { headers: headersOf(instance) }), from)),
  });
  const stored = () =>
    context.database.get<{ host: string; agent_instance: string; agent_seen_at: number }>(
      "SELECT host, agent_instance, agent_seen_at FROM vpn_nodes WHERE name = ?",
      [name],
    );
  const silence = (ms: number) =>
    context.database.run("UPDATE vpn_nodes SET agent_seen_at = agent_seen_at - ? WHERE name = ?", [ms, name]);
  return { ...testApp, calls, stored, silence };
}

async function refusal(response: Response) {
  expect(response.status).toBe(409);
  return ((await response.json()) as Failure).error;
}

describe("a second agent with the same key", () => {
  test("is refused with 409 on every call and changes nothing; the panel shows when and from where", async () => {
    const { app, context, calls, stored } = await nodeWithAgents("de-fra-1");
    const { device } = await customerWithDevice(app, context, "agents@example.com");
    expect((await calls(first).report({ host: "a.example.net" })).status).toBe(200);

    const other = calls(second, "198.51.100.7");
    const error = await refusal(await other.report({ host: "b.example.net" }));
    expect(error.code).toBe("node_agent_conflict");
    expect(error.message).toMatch(
      /^Another agent with this node's key was heard from \d+ s ago: one key is one agent, so this one is refused\. Stop the other agent, or add a node of its own for this one in the panel and put its key in NODE_KEY\.$/,
    );
    const batch = {
      traffic: [{ tag: device.tag, upload: 10, download: 10 }],
      connections: [{ tag: device.tag, clientIp: "203.0.113.5", at: Date.now(), success: true }],
    };
    await refusal(await other.events(batch));
    await refusal(await other.allowList());

    // Nothing of it was kept: the links still name the first agent's host, no bytes, no logs.
    expect((await stored())?.host).toBe("a.example.net");
    expect(
      await context.database.get("SELECT 1 AS found FROM device_traffic WHERE device_id = ?", [device.rowId]),
    ).toBeUndefined();
    expect(await context.database.get("SELECT 1 AS found FROM connection_logs")).toBeUndefined();
    // The first agent goes on as before.
    expect((await calls(first).events(batch)).status).toBe(200);
    expect((await calls(first).allowList()).status).toBe(200);

    const [node] = await listNodes(context.database, context.clock.now());
    expect(node?.refusedAgent?.address).toBe("198.51.100.7");
    expect(Date.now() - Date.parse(node?.refusedAgent?.at ?? "")).toBeLessThan(60_000);
  });

  test("takes the key once the first has been silent for 60 s; the first is then the one refused", async () => {
    const { calls, stored, silence } = await nodeWithAgents("de-fra-2");
    expect((await calls(first).report()).status).toBe(200);
    await silence(59_000);
    await refusal(await calls(second).report());
    await silence(2_000);
    expect((await calls(second).report({ host: "b.example.net" })).status).toBe(200);
    expect(await stored()).toMatchObject({ host: "b.example.net", agent_instance: second });
    await refusal(await calls(first).report());
  });

  test("callers without X-Agent-Instance count as one instance, as before; an agent with one is refused beside them", async () => {
    const { calls, stored } = await nodeWithAgents("de-fra-3");
    for (const from of ["203.0.113.1", "203.0.113.2"])
      expect((await calls(undefined, from).report()).status).toBe(200);
    expect((await stored())?.agent_instance).toBe("");
    await refusal(await calls(first).report());
  });

  test("an instance is a UUID in any letter case; anything else is 400", async () => {
    const { calls, stored } = await nodeWithAgents("de-fra-4");
    expect((await calls(first.toUpperCase()).report()).status).toBe(200);
    expect((await calls(first).report()).status).toBe(200);
    expect((await stored())?.agent_instance).toBe(first);
    for (const instance of ["agent-1", `${first}0`, "'; DROP TABLE vpn_nodes; --"]) {
      const response = await calls(instance).report();
      expect(response.status, instance).toBe(400);
      expect(((await response.json()) as Failure).error).toEqual({
        code: "invalid_agent_instance",
        message: "X-Agent-Instance must be a UUID (the agent keeps one in its state file).",
      });
    }
  });
});
