/** A device's connections from one address within this long are one event: cores log a line per request. */
const burstMs = 10 * 60 * 1000;
/** Bursts remembered at most; the oldest give way (a flood of addresses cannot grow memory). */
const maxBursts = 100_000;

/**
 * Which access-log lines are worth a connection event: the first per (tag, client IP) in
 * each 10 minutes. The rest are the same customer's further requests; sending them would
 * fill the connection log and trace every request's timing.
 */
export class ConnectionBursts {
  /** key → when its burst began; insertion order is start order, so the oldest come first. */
  private readonly startedAt = new Map<string, number>();

  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  /** True for the first line of a burst (the one to report). */
  isNew(tag: string, clientIp: string): boolean {
    const now = this.now();
    this.forgetOld(now);
    const key = `${tag} ${clientIp}`;
    const began = this.startedAt.get(key);
    if (began !== undefined && now - began < burstMs && now >= began) return false;
    this.startedAt.delete(key);
    this.startedAt.set(key, now);
    if (this.startedAt.size > maxBursts) this.startedAt.delete(this.startedAt.keys().next().value as string);
    return true;
  }

  get size(): number {
    return this.startedAt.size;
  }

  private forgetOld(now: number): void {
    for (const [key, began] of this.startedAt) {
      if (now - began < burstMs && now >= began) break;
      this.startedAt.delete(key);
    }
  }
}
