import { Elysia, type Static } from "elysia";
import { describe, expect, test } from "vitest";
import { nodeApiModule } from "../../../../bff/modules/access/nodes/node-api";
import { createIntakeLimit } from "../../../../bff/modules/access/nodes/node-intake-limit";
import { errorHandler } from "../../../../bff/platform/error-handler";
import type { errorResponse } from "../../../../bff/platform/schemas";
import { makeTestApp, postJson } from "../../../helpers/app";
import { customerWithDevice, nodeHeaders } from "../../../helpers/nodes";

/**
 * DESIGN §8: a node that sends more than the product takes in is told to wait, before its body
 * is read. The calls go to the node API module alone, as raw requests: what is on the wire (the
 * refusal's timing, its Retry-After, a body that is no JSON) is the point.
 */
type Failure = Static<typeof errorResponse>;

describe("a node flooding the events call", () => {
  test("is refused with 429 node_busy and Retry-After once its allowance is spent, without its body being read; later it is taken again", async () => {
    const { app, context } = await makeTestApp();
    // The node API alone, with an allowance of 100 items a second and a burst of 2,000.
    const small = new Elysia({ prefix: "/api" })
      .use(errorHandler)
      .use(
        nodeApiModule(context, createIntakeLimit({ itemsPerSecond: 100, burstItems: 2000, batchCost: 100 })),
      );
    const node = await nodeHeaders(context, "flooding");
    const { device } = await customerWithDevice(app, context, "flooded@example.com");
    const batch = { traffic: Array(1000).fill({ tag: device.tag, upload: 1, download: 1 }), connections: [] };
    const send = (body: unknown) => small.handle(postJson("/api/nodes/events", body, node));

    for (let sent = 0; sent < 2; sent++) expect((await send(batch)).status).toBe(200);
    // 200 in debt at 100 a second: 2.01 s to wait. The refusal itself is held a second, so a
    // sender that does not wait costs the server one refusal a second.
    const started = performance.now();
    const refused = await send(batch);
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    expect(refused.status).toBe(429);
    // 2 or 3 s: the batches' writes took some of the wait (a slow database, a busy machine).
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect([2, 3]).toContain(retryAfter);
    const { error } = (await refused.json()) as Failure;
    expect(error.code).toBe("node_busy");
    expect(error.message).toBe(
      `This node sends more than the product takes in (100 items a second): keep the batch and send it again in ${retryAfter} s.`,
    );
    // Refused before its body is read: not even a body that is no JSON gets a 400. In English
    // whatever the request's language, as every answer to an agent (its log's language).
    const unread = await small.handle(
      postJson("/api/nodes/events", "{", { ...node, "accept-language": "ru" }),
    );
    expect(unread.status).toBe(429);
    expect(((await unread.json()) as Failure).error.message).toMatch(/^This node sends more/);
    // A key that is not a node's is still 401, not a node's allowance.
    const stranger = await small.handle(
      postJson("/api/nodes/events", batch, { authorization: "Bearer node_unknown" }),
    );
    expect(stranger.status).toBe(401);

    const stored = async () =>
      Number(
        (
          await context.database.get<{ upload: number }>(
            "SELECT SUM(upload) AS upload FROM device_traffic WHERE device_id = ?",
            [device.rowId],
          )
        )?.upload,
      );
    expect(await stored()).toBe(2000);
    await Bun.sleep(1_000);
    expect((await send(batch)).status).toBe(200);
    expect(await stored()).toBe(3000);
  });
});
