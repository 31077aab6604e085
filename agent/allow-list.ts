import type { AllowListResponse } from "./contract/node-api.ts";

/** A credential the node must hold, and when it leaves by the agent's own clock (ms since the epoch). */
export type AllowedCredential = { id: string; expiresAt: number };

/**
 * The allow-list as the agent last learned it. Each entry's end is fixed when it arrives
 * (the product's remaining time added to the agent's clock) and only a later answer from
 * the product moves it: the agent counts down, it never extends.
 */
export class AllowList {
  version = 0;
  readonly entries = new Map<string, AllowedCredential>();

  /** Applies one answer; returns every tag whose wanted state may have changed. */
  apply(answer: AllowListResponse, now: number): string[] {
    const touched = new Set<string>();
    if (answer.full) {
      for (const tag of this.entries.keys()) touched.add(tag);
      this.entries.clear();
    }
    for (const tag of answer.removed) {
      this.entries.delete(tag);
      touched.add(tag);
    }
    for (const entry of answer.entries) {
      touched.add(entry.tag);
      // Already over by the product's clock: an entry to remove, not one to add for 0 ms.
      if (entry.remainingMs <= 0) this.entries.delete(entry.tag);
      else this.entries.set(entry.tag, { id: entry.id, expiresAt: now + entry.remainingMs });
    }
    this.version = answer.version;
    return [...touched];
  }

  /** Drops the entries whose time has run out; returns their tags. */
  expire(now: number): string[] {
    const expired: string[] = [];
    for (const [tag, entry] of this.entries) {
      if (entry.expiresAt <= now) {
        this.entries.delete(tag);
        expired.push(tag);
      }
    }
    return expired;
  }

  /** Restores a saved list as it was (entries already over are the caller's to drop). */
  restore(version: number, entries: Iterable<[string, AllowedCredential]>): void {
    this.version = version;
    this.entries.clear();
    for (const [tag, entry] of entries) this.entries.set(tag, entry);
  }
}
