import { randomUUID } from "node:crypto";
import type { ConnectionEvent, NodeEvents } from "./contract/node-api.ts";
import type { CoreApi } from "./core-api.ts";
import { parseUserStat } from "./core-messages.ts";
import { EventQueue } from "./event-queue.ts";
import type { Logger } from "./log.ts";
import { type ProductApi, ProductError } from "./product-api.ts";

/** Connection events that make a batch worth sending before the 10 s beat. */
const eagerBatch = 1_000;
/** A tag that left is still reported this long: its last bytes are read after its removal. */
const leftTagMemoryMs = 60_000;

/** The counters' first read when the core's start is unknown: the longest period a batch may name. */
const unknownCountersPeriodMs = 7 * 24 * 60 * 60 * 1000;

/**
 * Answers of 5xx to the same batch before it is dropped: a product that is down answers
 * nothing (kept for as long as it takes), but one that answers and fails on this batch
 * every time would otherwise hold every later event of the node behind it for ever.
 */
const maxServerErrorsPerBatch = 10;

/** A refusal that would come again for the same batch: it is dropped, not retried for ever. */
const isPermanent = (error: unknown) =>
  error instanceof ProductError &&
  error.status !== undefined &&
  error.status >= 400 &&
  error.status < 500 &&
  ![401, 403, 408, 409, 429].includes(error.status);

/**
 * Traffic per credential (the core's per-user counters, read and zeroed) and connection
 * events, sent in batches at least every 10 s. A batch the product did not take is kept as
 * it was, under its id, and sent first next time: if it had been stored and only the answer
 * was lost, the product knows the id and does not count it twice. What comes meanwhile
 * waits in the queue, summed per device and capped, until the kept batches are through.
 */
export class EventSender {
  private readonly queue = new EventQueue();
  private unsent: NodeEvents[] = [];
  private readonly recentlyLeft = new Map<string, number>();
  private flushing: Promise<void> | undefined;
  private lastFlushAt = 0;
  /** When batches stopped getting through: the recovery is logged with how long it took. */
  private failingSince: number | undefined;
  /** 5xx answers the first kept batch has had. */
  private serverErrors = 0;
  /**
   * Since when the core's per-user counters count: the last read (they are read with
   * reset), or the core's start for the first read. Unknown: at most a week.
   */
  countersSince: number | undefined;
  private readonly core: CoreApi;
  private readonly product: ProductApi;
  private readonly log: Logger;
  private readonly isKnownTag: (tag: string) => boolean;
  private readonly now: () => number;

  constructor(
    core: CoreApi,
    product: ProductApi,
    log: Logger,
    isKnownTag: (tag: string) => boolean,
    now: () => number = Date.now,
  ) {
    this.core = core;
    this.product = product;
    this.log = log;
    this.isKnownTag = isKnownTag;
    this.now = now;
  }

  tagsLeft(tags: string[]): void {
    const now = this.now();
    for (const tag of tags) this.recentlyLeft.set(tag, now);
  }

  isRecentlyLeft(tag: string): boolean {
    return this.recentlyLeft.has(tag);
  }

  connection(event: ConnectionEvent): void {
    this.queue.addConnection(event);
    if (this.queue.pendingConnections >= eagerBatch && this.now() - this.lastFlushAt >= 1_000)
      void this.flush();
  }

  flush(): Promise<void> {
    this.flushing ??= this.send().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async send(): Promise<void> {
    this.lastFlushAt = this.now();
    await this.readTraffic();
    if (!(await this.deliverUnsent())) return;
    if (this.queue.isEmpty) return;
    this.unsent = this.queue.takeBatches(this.now()).map((batch) => ({ batchId: randomUUID(), ...batch }));
    if (!(await this.deliverUnsent())) return;
    if (this.queue.droppedConnections > 0) {
      this.log("warn", "connection events dropped while the product was unreachable", {
        count: this.queue.droppedConnections,
      });
      this.queue.droppedConnections = 0;
    }
  }

  /** Sends the kept batches in order; false when the product is away (they stay kept). */
  private async deliverUnsent(): Promise<boolean> {
    for (let batch = this.unsent[0]; batch; batch = this.unsent[0]) {
      try {
        await this.product.events(batch);
      } catch (error) {
        const cause = (error as Error).message;
        const status = error instanceof ProductError ? (error.status ?? 0) : 0;
        if (status >= 500) this.serverErrors++;
        if (!isPermanent(error) && this.serverErrors < maxServerErrorsPerBatch) {
          this.failingSince ??= this.now();
          this.log("warn", "events not delivered; kept for the next try", { cause });
          return false;
        }
        // Sending it again would be refused again, and every later batch would wait behind it.
        this.log("error", "the product refused a batch of events; dropped", {
          cause,
          samples: batch.traffic.length,
          connections: batch.connections.length,
        });
      }
      this.unsent.shift();
      this.serverErrors = 0;
      this.recovered();
    }
    return true;
  }

  private recovered(): void {
    if (this.failingSince === undefined) return;
    this.log("info", "events delivered again", {
      failedFor: `${Math.round((this.now() - this.failingSince) / 1000)} s`,
    });
    this.failingSince = undefined;
  }

  private async readTraffic(): Promise<void> {
    let stats: Awaited<ReturnType<CoreApi["takeUserTraffic"]>>;
    const readAt = this.now();
    try {
      stats = await this.core.takeUserTraffic();
    } catch (error) {
      this.log("warn", "traffic counters unreadable", { cause: (error as Error).message });
      return;
    }
    const since = this.countersSince ?? readAt - unknownCountersPeriodMs;
    this.countersSince = readAt;
    for (const stat of stats) {
      const parsed = parseUserStat(stat.name);
      if (!parsed || !this.isKnownTag(parsed.email)) continue;
      if (parsed.direction === "uplink") this.queue.addTraffic(parsed.email, stat.value, 0, since);
      else this.queue.addTraffic(parsed.email, 0, stat.value, since);
    }
    const now = this.now();
    for (const [tag, leftAt] of this.recentlyLeft)
      if (now - leftAt > leftTagMemoryMs) this.recentlyLeft.delete(tag);
  }
}
