import { describe, expect, test } from "vitest";
import { rotateNodeKey, setNodeDisabled } from "../../../../bff/modules/access/nodes/node-keys";
import { apiOf, identityOf, refusalOf, sessionOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { allowList, customerWithDevice, nodeHeaders } from "../../../helpers/nodes";

/** DESIGN §8: a long poll already waiting checks its node again before it answers. */

async function waitingNode(name: string) {
  const testApp = await makeTestApp();
  const { app, context } = testApp;
  const headers = await nodeHeaders(context, name);
  const row = await context.database.get<{ id: number }>("SELECT id FROM vpn_nodes WHERE name = ?", [name]);
  const { customer, device } = await customerWithDevice(app, context, `${name}@example.com`);
  const { version } = await allowList(app, headers);
  const poll = (wait: number) =>
    apiOf(app).nodes.allowlist.get({ headers, query: { since: String(version), wait: String(wait) } });
  return { ...testApp, nodeId: Number(row?.id), customer, deviceId: device.deviceId, poll };
}

describe("an agent waiting on the allow-list", () => {
  test("is refused with 403 when its node is disabled meanwhile, even when a change arrives", async () => {
    const { app, context, nodeId, customer, deviceId, poll } = await waitingNode("disabled-while-waiting");
    const started = performance.now();
    const waiting = poll(20);
    await Bun.sleep(300);
    await setNodeDisabled(context.database, nodeId, context.clock.now());
    // A change that would otherwise wake it with a delta: the device's new credential.
    const reset = await apiOf(app).profile.devices.resetLink.post(
      { ...identityOf(customer), deviceId },
      sessionOf(customer),
    );
    expect(reset.status).toBe(200);
    const answer = await refusalOf(waiting);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(answer.status).toBe(403);
    expect(answer.code).toBe("node_disabled");
  });

  test("is refused with 401 node_key_rotated when its key was replaced meanwhile, at the end of its wait", async () => {
    const { context, nodeId, poll } = await waitingNode("rotated-while-waiting");
    const started = performance.now();
    const waiting = poll(1);
    await Bun.sleep(200);
    await rotateNodeKey(context.database, nodeId);
    const answer = await refusalOf(waiting);
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    expect(answer.status).toBe(401);
    expect(answer.code).toBe("node_key_rotated");
  });
});
