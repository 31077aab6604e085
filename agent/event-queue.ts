import type { ConnectionEvent, NodeEvents, TrafficSample } from "./contract/node-api.ts";

/** Connection events kept while the product is unreachable; the oldest give way beyond this. */
const maxConnections = 50_000;
/** The longest period a batch may say its traffic was gathered over (node-wire.ts). */
const maxPeriodMs = 7 * 24 * 60 * 60 * 1000;
/** The product takes request bodies up to 64 KB, and up to 1,000 samples and 1,000 events each (node-wire.ts). */
const maxBatchBytes = 48 * 1024;
const maxBatchItems = 1_000;

/**
 * Traffic and connection events waiting to be sent. Traffic is summed per tag, so it
 * takes one slot per device however long the product is away; connection events are
 * capped (counted when dropped). Batches taken from it and not yet delivered are the
 * sender's to keep (event-sender.ts).
 */
export class EventQueue {
  private traffic = new Map<string, { upload: number; download: number }>();
  private connections: ConnectionEvent[] = [];
  /** Since when the queued traffic was counted: the product bounds a sample by its period. */
  private trafficSince: number | undefined;
  droppedConnections = 0;

  /** Bytes a device moved, counted by the core since `since` (ms). */
  addTraffic(tag: string, upload: number, download: number, since: number): void {
    if (upload === 0 && download === 0) return;
    this.trafficSince = Math.min(this.trafficSince ?? since, since);
    const sum = this.traffic.get(tag) ?? { upload: 0, download: 0 };
    sum.upload += upload;
    sum.download += download;
    this.traffic.set(tag, sum);
  }

  addConnection(event: ConnectionEvent): void {
    this.connections.push(event);
    if (this.connections.length > maxConnections) {
      const excess = this.connections.length - maxConnections;
      this.connections.splice(0, excess);
      this.droppedConnections += excess;
    }
  }

  get pendingConnections(): number {
    return this.connections.length;
  }

  get isEmpty(): boolean {
    return this.traffic.size === 0 && this.connections.length === 0;
  }

  /** Everything queued, cut into bodies under the product's limit, and the queue emptied. */
  takeBatches(now: number): NodeEvents[] {
    const periodMs =
      this.trafficSince === undefined
        ? undefined
        : Math.min(maxPeriodMs, Math.max(1, Math.ceil(now - this.trafficSince)));
    const batches: NodeEvents[] = [];
    let batch: NodeEvents = { traffic: [], connections: [] };
    let size = 0;
    const push = (bytes: number, items: unknown[]) => {
      if ((size + bytes > maxBatchBytes && size > 0) || items.length >= maxBatchItems) {
        batches.push(batch);
        batch = { traffic: [], connections: [] };
        size = 0;
      }
      size += bytes;
    };
    for (const [tag, sum] of this.traffic) {
      const sample: TrafficSample = { tag, upload: sum.upload, download: sum.download };
      push(JSON.stringify(sample).length + 1, batch.traffic);
      batch.traffic.push(sample);
    }
    for (const event of this.connections) {
      push(JSON.stringify(event).length + 1, batch.connections);
      batch.connections.push(event);
    }
    if (size > 0) batches.push(batch);
    this.traffic = new Map();
    this.connections = [];
    this.trafficSince = undefined;
    return batches.map((taken) => (taken.traffic.length > 0 && periodMs ? { periodMs, ...taken } : taken));
  }
}
