import type { ConnectionEvent } from "../bff/modules/access/node-wire";
import type { CoreApi } from "./core-api";
import { parseUserStat } from "./core-messages";
import { EventQueue } from "./event-queue";
import type { Logger } from "./log";
import { type ProductApi, ProductError } from "./product-api";

/** Connection events that make a batch worth sending before the 10 s beat. */
const eagerBatch = 1_000;
/** A tag that left is still reported this long: its last bytes are read after its removal. */
const leftTagMemoryMs = 60_000;

/** A refusal that would come again for the same batch: it is dropped, not retried for ever. */
const isPermanent = (error: unknown) =>
  error instanceof ProductError &&
  error.status !== undefined &&
  error.status >= 400 &&
  error.status < 500 &&
  ![401, 403, 408, 429].includes(error.status);

/**
 * Traffic per credential (the core's per-user counters, read and zeroed) and connection
 * events, sent in batches at least every 10 s; kept and sent again when the product is away.
 */
export class EventSender {
  private readonly queue = new EventQueue();
  private readonly recentlyLeft = new Map<string, number>();
  private flushing: Promise<void> | undefined;
  private lastFlushAt = 0;

  constructor(
    private readonly core: CoreApi,
    private readonly product: ProductApi,
    private readonly log: Logger,
    private readonly isKnownTag: (tag: string) => boolean,
    private readonly now: () => number = Date.now,
  ) {}

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
    if (this.queue.isEmpty) return;
    const batches = this.queue.takeBatches();
    while (batches.length > 0) {
      const batch = batches[0];
      if (!batch) break;
      try {
        await this.product.events(batch);
        batches.shift();
      } catch (error) {
        if (isPermanent(error)) {
          this.log("error", "the product refused a batch of events; dropped", {
            cause: (error as Error).message,
          });
          batches.shift();
          continue;
        }
        this.log("warn", "events not delivered; kept for the next try", { cause: (error as Error).message });
        this.queue.putBack(batches);
        return;
      }
    }
    if (this.queue.droppedConnections > 0) {
      this.log("warn", "connection events dropped while the product was unreachable", {
        count: this.queue.droppedConnections,
      });
      this.queue.droppedConnections = 0;
    }
  }

  private async readTraffic(): Promise<void> {
    let stats: Awaited<ReturnType<CoreApi["takeUserTraffic"]>>;
    try {
      stats = await this.core.takeUserTraffic();
    } catch (error) {
      this.log("warn", "traffic counters unreadable", { cause: (error as Error).message });
      return;
    }
    for (const stat of stats) {
      const parsed = parseUserStat(stat.name);
      if (!parsed || !this.isKnownTag(parsed.email)) continue;
      if (parsed.direction === "uplink") this.queue.addTraffic(parsed.email, stat.value, 0);
      else this.queue.addTraffic(parsed.email, 0, stat.value);
    }
    const now = this.now();
    for (const [tag, leftAt] of this.recentlyLeft)
      if (now - leftAt > leftTagMemoryMs) this.recentlyLeft.delete(tag);
  }
}
