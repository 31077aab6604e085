import { describe, expect, test } from "vitest";
import type { NodeEvents } from "../../../agent/contract/node-api";
import { EventQueue } from "../../../agent/event-queue";
import { EventSender } from "../../../agent/event-sender";
import { silentLogger } from "../../../agent/log";
import { type ProductApi, ProductError } from "../../../agent/product-api";
import { FakeCoreApi } from "../../helpers/fake-core-api";

class EventsProduct implements ProductApi {
  readonly received: NodeEvents[] = [];
  /** Every send, taken or not. */
  readonly sent: NodeEvents[] = [];
  failWith: ProductError | undefined;
  async allowList(): Promise<never> {
    throw new Error("not used");
  }
  async report(): Promise<void> {}
  async events(events: NodeEvents): Promise<void> {
    this.sent.push(structuredClone(events));
    if (this.failWith) throw this.failWith;
    this.received.push(structuredClone(events));
  }
}

const stat = (tag: string, direction: "uplink" | "downlink", value: number) => ({
  name: `user>>>${tag}>>>traffic>>>${direction}`,
  value,
});

describe("traffic and connection events", () => {
  test("traffic is summed per device; a batch the product did not take is sent again as it was, under its id, then what came since", async () => {
    const core = new FakeCoreApi([]);
    const product = new EventsProduct();
    const sender = new EventSender(core, product, silentLogger, (tag) => tag.startsWith("dev-"));
    core.traffic = [
      stat("dev-a", "uplink", 100),
      stat("dev-a", "downlink", 2000),
      stat("admin@example.com", "uplink", 5),
    ];
    sender.connection({ tag: "dev-a", clientIp: "203.0.113.7", at: 1, success: true });

    // Refused, or stored with the answer lost: the agent cannot tell which.
    product.failWith = new ProductError("POST /api/nodes/events answered 503", 503);
    await sender.flush();
    expect(product.received).toEqual([]);
    const first = product.sent[0];
    expect(first?.batchId).toMatch(/^[0-9a-f-]{36}$/);

    product.failWith = undefined;
    core.traffic = [stat("dev-a", "uplink", 50), stat("dev-b", "downlink", 7)];
    await sender.flush();
    expect(product.received).toEqual([
      {
        batchId: first?.batchId,
        periodMs: first?.periodMs,
        traffic: [{ tag: "dev-a", upload: 100, download: 2000 }],
        connections: [{ tag: "dev-a", clientIp: "203.0.113.7", at: 1, success: true }],
      },
      {
        batchId: expect.not.stringMatching(first?.batchId ?? ""),
        periodMs: expect.any(Number),
        traffic: [
          { tag: "dev-a", upload: 50, download: 0 },
          { tag: "dev-b", upload: 0, download: 7 },
        ],
        connections: [],
      },
    ]);

    await sender.flush();
    expect(product.received).toHaveLength(2);
  });

  test("while the product is away, the kept batch is tried alone and what comes meanwhile waits, summed", async () => {
    const core = new FakeCoreApi([]);
    const product = new EventsProduct();
    const sender = new EventSender(core, product, silentLogger, () => true);
    product.failWith = new ProductError("connection refused");
    for (const bytes of [10, 20, 30]) {
      core.traffic = [stat("dev-a", "downlink", bytes)];
      await sender.flush();
    }
    // Three tries of the one batch of the first 10 bytes; the 50 after it wait in the queue.
    expect(product.sent.map((batch) => batch.traffic)).toEqual([
      [{ tag: "dev-a", upload: 0, download: 10 }],
      [{ tag: "dev-a", upload: 0, download: 10 }],
      [{ tag: "dev-a", upload: 0, download: 10 }],
    ]);
    expect(new Set(product.sent.map((batch) => batch.batchId)).size).toBe(1);
    product.failWith = undefined;
    core.traffic = [];
    await sender.flush();
    expect(product.received.map((batch) => batch.traffic)).toEqual([
      [{ tag: "dev-a", upload: 0, download: 10 }],
      [{ tag: "dev-a", upload: 0, download: 50 }],
    ]);
  });

  test("a device that just left still has its last bytes reported", async () => {
    const core = new FakeCoreApi([]);
    const product = new EventsProduct();
    const sender = new EventSender(core, product, silentLogger, (tag) => sender.isRecentlyLeft(tag));
    sender.tagsLeft(["dev-gone"]);
    core.traffic = [stat("dev-gone", "downlink", 10)];
    await sender.flush();
    expect(product.received[0]?.traffic).toEqual([{ tag: "dev-gone", upload: 0, download: 10 }]);
  });

  test("a batch the product refuses as malformed is dropped, not retried for ever", async () => {
    const core = new FakeCoreApi([]);
    const product = new EventsProduct();
    const sender = new EventSender(core, product, silentLogger, () => true);
    sender.connection({ tag: "dev-a", clientIp: "203.0.113.7", at: 1, success: true });
    product.failWith = new ProductError("POST /api/nodes/events answered 400", 400);
    await sender.flush();
    product.failWith = undefined;
    await sender.flush();
    expect(product.received).toEqual([]);
  });

  test("a batch with traffic says how long it was counted, from the oldest counters in it", () => {
    const queue = new EventQueue();
    queue.addTraffic("dev-a", 10, 20, 50_000);
    queue.addTraffic("dev-b", 1, 2, 40_000);
    queue.addConnection({ tag: "dev-a", clientIp: "203.0.113.7", at: 1, success: true });
    expect(queue.takeBatches(60_000)).toEqual([
      {
        periodMs: 20_000,
        traffic: [
          { tag: "dev-a", upload: 10, download: 20 },
          { tag: "dev-b", upload: 1, download: 2 },
        ],
        connections: [{ tag: "dev-a", clientIp: "203.0.113.7", at: 1, success: true }],
      },
    ]);
    // Connections alone carry no period; the next traffic counts from its own start.
    queue.addConnection({ tag: "dev-a", clientIp: "203.0.113.7", at: 2, success: true });
    expect(queue.takeBatches(70_000)[0]).not.toHaveProperty("periodMs");
    queue.addTraffic("dev-a", 1, 1, 65_000);
    expect(queue.takeBatches(75_000)[0]?.periodMs).toBe(10_000);
  });

  test("the counters' first read after a start counts from the core's start, later ones from the read before", async () => {
    let clock = 1_000_000;
    const core = new FakeCoreApi([]);
    const product = new EventsProduct();
    const sender = new EventSender(
      core,
      product,
      silentLogger,
      () => true,
      () => clock,
    );
    sender.countersSince = clock - 3_600_000;
    core.traffic = [stat("dev-a", "downlink", 10)];
    await sender.flush();
    expect(product.received[0]?.periodMs).toBe(3_600_000);
    clock += 10_000;
    core.traffic = [stat("dev-a", "downlink", 10)];
    await sender.flush();
    expect(product.received[1]?.periodMs).toBe(10_000);
  });

  test("a batch refused because another agent holds the key, or the product is busy, is kept, not dropped", async () => {
    const core = new FakeCoreApi([]);
    const product = new EventsProduct();
    const sender = new EventSender(core, product, silentLogger, () => true);
    sender.connection({ tag: "dev-a", clientIp: "203.0.113.7", at: 1, success: true });
    for (const status of [409, 429]) {
      product.failWith = new ProductError(`POST /api/nodes/events answered ${status}`, status);
      await sender.flush();
    }
    product.failWith = undefined;
    await sender.flush();
    expect(product.received.flatMap((batch) => batch.connections)).toHaveLength(1);
  });

  test("a batch the product fails on (5xx) ten times is dropped, so later events are not held behind it for ever; one it cannot reach is kept", async () => {
    const core = new FakeCoreApi([]);
    const product = new EventsProduct();
    const sender = new EventSender(core, product, silentLogger, () => true);
    sender.connection({ tag: "dev-a", clientIp: "203.0.113.7", at: 1, success: true });
    product.failWith = new ProductError("fetch failed: connect ECONNREFUSED");
    for (let attempt = 0; attempt < 20; attempt++) await sender.flush();
    product.failWith = new ProductError("POST /api/nodes/events answered 500", 500);
    for (let attempt = 0; attempt < 9; attempt++) await sender.flush();
    expect(product.sent.at(-1)?.connections[0]?.at).toBe(1);
    await sender.flush();
    product.failWith = undefined;
    sender.connection({ tag: "dev-a", clientIp: "203.0.113.7", at: 2, success: true });
    await sender.flush();
    expect(product.received.flatMap((batch) => batch.connections.map((event) => event.at))).toEqual([2]);
  });

  test("batches hold at most 1,000 samples and 1,000 events, as the product takes them", () => {
    const queue = new EventQueue();
    for (let index = 0; index < 2_500; index++) queue.addTraffic(`d${index}`, 1, 2, 0);
    const batches = queue.takeBatches(10_000);
    expect(batches.map((batch) => batch.traffic.length)).toEqual([1_000, 1_000, 500]);
  });

  test("batches stay under the product's 64 KB body limit, and memory is bounded while the product is away", () => {
    const queue = new EventQueue();
    for (let index = 0; index < 60_000; index++)
      queue.addConnection({
        tag: `dev-${index}`,
        clientIp: "2001:db8::1234:5678",
        at: 1_790_000_000_000 + index,
        success: true,
      });
    for (let index = 0; index < 2_000; index++) queue.addTraffic(`dev-${index}`, 1, 2, 0);
    expect(queue.droppedConnections).toBe(10_000);
    const batches = queue.takeBatches(10_000);
    expect(batches.length).toBeGreaterThan(1);
    for (const batch of batches) {
      expect(JSON.stringify(batch).length).toBeLessThan(64 * 1024);
      expect(batch.connections.length).toBeLessThanOrEqual(1_000);
    }
    expect(batches.flatMap((batch) => batch.connections)).toHaveLength(50_000);
    expect(batches.flatMap((batch) => batch.connections)[0]?.tag).toBe("dev-10000");
    expect(batches.flatMap((batch) => batch.traffic)).toHaveLength(2_000);
    expect(queue.isEmpty).toBe(true);
  });
});
