import { describe, expect, test } from "vitest";
import { makeTestApp, postJson } from "../../../helpers/app";
import {
  allAnswered,
  customerCallStatuses,
  customerWithDevice,
  nodeHeaders,
  sampleReport,
} from "../../../helpers/nodes";
import { prng } from "../../../helpers/seeded-random";

/**
 * DESIGN §8, §9, §12: nothing a node sends gets a 500. Batches and reports built from a valid
 * one with hostile values put in at random places (a seeded generator, so a failure repeats):
 * every answer is 200, 400 or 429 in the API's error shape, and the customer's calls still
 * answer 200 afterwards.
 */

const hostileValues: readonly unknown[] = [
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 63,
  2 ** 64,
  1e308,
  -1,
  -(2 ** 53),
  0.5,
  -0,
  "1",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e999",
  "0x10",
  "",
  "::::::",
  "1.2.3.256",
  "fe80::1%eth0",
  "2001:db8::1",
  "x".repeat(5_000),
  "\u0000",
  "\u202e",
  "'; DROP TABLE devices; --",
  null,
  true,
  false,
  [],
  [1, 2, 3],
  {},
  { __proto__: { polluted: true } },
  { nested: { deeper: [{ deepest: "x" }] } },
];

const uuid = "6f1d4c2e-3b5a-4e8f-9c7d-0a1b2c3d4e5f";

/** A copy of `value` with one hostile value put at a random path (or a field added or removed). */
function mutated(value: unknown, random: ReturnType<typeof prng>): unknown {
  const copy = structuredClone(value);
  const containers: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) {
      node.forEach((child, index) => {
        containers.push({ parent: node, key: index });
        walk(child);
      });
    } else if (node !== null && typeof node === "object") {
      for (const [key, child] of Object.entries(node)) {
        containers.push({ parent: node as Record<string, unknown>, key });
        walk(child);
      }
    }
  };
  walk(copy);
  const target = random.pick(containers);
  if (!target) return copy;
  const action = random.next();
  if (action < 0.1 && !Array.isArray(target.parent)) delete target.parent[target.key as string];
  else if (action < 0.15 && !Array.isArray(target.parent))
    target.parent.unexpected = random.pick(hostileValues);
  else (target.parent as Record<string | number, unknown>)[target.key] = random.pick(hostileValues);
  return copy;
}

describe("the node API under hostile input", () => {
  test("events and reports answer only 200, 400 or 429, always in the error shape, and customers are unharmed", async () => {
    const { app, context } = await makeTestApp();
    const node = { ...(await nodeHeaders(context, "fuzzed")), "x-agent-instance": uuid };
    const other = { ...(await nodeHeaders(context, "fuzzed-2")), "x-agent-instance": uuid };
    const { customer, device } = await customerWithDevice(app, context, "fuzzed@example.com");
    const random = prng(20261202);
    const sample = { tag: device.tag, upload: 1_000, download: 2_000 };
    const event = { tag: device.tag, clientIp: "203.0.113.5", at: Date.now(), success: true };
    const batch = (items: number) => ({
      batchId: crypto.randomUUID(),
      periodMs: 10_000,
      traffic: Array.from({ length: items }, () => ({ ...sample })),
      connections: Array.from({ length: Math.min(items, 3) }, () => ({ ...event })),
    });
    const report = { ...sampleReport, coreState: "up", credentials: 1, agentVersion: "1.0.0" };

    const bodies: [string, unknown][] = [];
    for (let index = 0; index < 250; index++) bodies.push(["/api/nodes/events", mutated(batch(3), random)]);
    for (let index = 0; index < 150; index++) bodies.push(["/api/nodes/report", mutated(report, random)]);
    // Whole batches of the largest size, duplicate tags in one batch, and numbers at their edges.
    const edges: [string, unknown][] = [
      ["/api/nodes/events", batch(1_000)],
      ["/api/nodes/events", { traffic: Array(1_000).fill(sample), connections: [] }],
      ["/api/nodes/events", { traffic: [], connections: Array(600).fill(event) }],
      ["/api/nodes/events", { traffic: Array(1_001).fill({ ...sample, upload: 1 }), connections: [] }],
      [
        "/api/nodes/events",
        { traffic: Array(600).fill({ ...sample, upload: Number.MAX_SAFE_INTEGER }), connections: [] },
      ],
      ["/api/nodes/events", { traffic: [{ ...sample, download: 2 ** 64 }], connections: [] }],
      ["/api/nodes/events", { traffic: [], connections: [{ ...event, at: 8_640_000_000_000_001 }] }],
      ["/api/nodes/events", { periodMs: 604_800_001, traffic: [], connections: [] }],
      ["/api/nodes/report", { ...report, credentials: 100_000_001 }],
      ["/api/nodes/report", { ...report, appliedVersion: Number.MAX_SAFE_INTEGER + 2 }],
      ["/api/nodes/report", { ...report, host: "h".repeat(254) }],
      ["/api/nodes/report", { ...report, inbounds: Array(64).fill(report.inbounds[0]) }],
      ["/api/nodes/report", "[]"],
      ["/api/nodes/report", "null"],
      ["/api/nodes/events", '{"traffic": [], "connections": [], "periodMs": NaN}'],
      ["/api/nodes/events", `{"traffic": [${"[".repeat(500)}${"]".repeat(500)}], "connections": []}`],
    ];

    // The edges from two nodes: what one device's rows on two nodes add up to is what broke sums.
    const calls = [
      ...bodies.map(([path, body]) => ({ path, body, headers: node })),
      ...[node, other].flatMap((headers) => edges.map(([path, body]) => ({ path, body, headers }))),
    ];
    const statuses = new Map<number, number>();
    for (const { path, body, headers } of calls) {
      const response = await app.handle(postJson(path, body, headers));
      const label = `${path} ${JSON.stringify(body).slice(0, 300)}`;
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      expect([200, 400, 429], label).toContain(response.status);
      const answer = (await response.json()) as {
        success: boolean;
        error?: { code: string; message: string };
      };
      if (response.status === 200) {
        expect(answer.success, label).toBe(true);
      } else {
        expect(answer.success, label).toBe(false);
        expect(answer.error?.code, label).toMatch(/^[a-z_]+$/);
        expect(answer.error?.message.length, label).toBeGreaterThan(10);
      }
    }
    // The fuzz reached both sides: some batches were stored, most were refused.
    expect(statuses.get(200)).toBeGreaterThan(10);
    expect(statuses.get(400)).toBeGreaterThan(100);

    // Hostile headers too: an instance that is no UUID, a key that is no key.
    for (const headers of [
      { ...node, "x-agent-instance": "x".repeat(5_000) },
      { ...node, "x-agent-instance": "../../etc/passwd" },
      { authorization: `Bearer ${"k".repeat(5_000)}` },
      { authorization: "Bearer" },
    ]) {
      const response = await app.handle(postJson("/api/nodes/events", batch(1), headers));
      expect([400, 401]).toContain(response.status);
    }

    expect(await customerCallStatuses(app, customer, device.subscriptionPath)).toEqual(allAnswered);
  }, 120_000);
});
