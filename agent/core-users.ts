import type { AllowList } from "./allow-list.ts";
import type { InboundReport } from "./contract/node-api.ts";
import type { CoreApi } from "./core-api.ts";
import type { CoreUser } from "./core-messages.ts";

/** Calls in flight at once: a full resync of 100,000 credentials must not be one call at a time. */
const parallelCalls = 32;

export type ConvergeResult = {
  /** Tags still out of step (the core refused or was unreachable); retried on the next pass. */
  failed: number;
  firstError?: unknown;
};

/** gRPC UNAVAILABLE and DEADLINE_EXCEEDED: the core is not there; the rest of the pass would fail the same way. */
const isCoreUnreachable = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error && (error.code === 14 || error.code === 4);

/**
 * What the core holds, brought to what the allow-list wants, tag by tag: every managed
 * inbound gets every allowed credential. Only touched tags are looked at, so a delta costs
 * its own size, not the whole list's.
 */
export class CoreUsers {
  /** tag → credential the core holds on every managed inbound (as far as the agent knows). */
  readonly held = new Map<string, string>();
  private readonly pending = new Set<string>();
  /** Tags added on some managed inbounds but not yet on all. */
  private readonly partlyAdded = new Set<string>();
  private running: Promise<ConvergeResult> | undefined;
  private isRerunWanted = false;
  private collected: ConvergeResult = { failed: 0 };
  private readonly api: CoreApi;
  private readonly inbounds: InboundReport[];
  private readonly allowList: AllowList;

  /** A credential left the core (removed, or replaced by a new id): its connections must end. */
  private readonly onRemoved: (tag: string) => void;

  constructor(
    api: CoreApi,
    inbounds: InboundReport[],
    allowList: AllowList,
    onRemoved: (tag: string) => void,
  ) {
    this.api = api;
    this.inbounds = inbounds;
    this.allowList = allowList;
    this.onRemoved = onRemoved;
  }

  touch(tags: Iterable<string>): void {
    for (const tag of tags) this.pending.add(tag);
  }

  get isInStep(): boolean {
    return this.pending.size === 0;
  }

  /**
   * Credentials the core has taken on every managed inbound, as the product wants them:
   * what the node reports, never what the agent merely means to add.
   */
  get accepted(): number {
    let count = 0;
    for (const [tag, entry] of this.allowList.entries)
      if (this.held.get(tag) === entry.id && !this.partlyAdded.has(tag)) count++;
    return count;
  }

  /**
   * The core may have lost its run-time users (it restarted, or its API failed for a
   * while) or may hold anything (the agent just started): push every allowed credential
   * again. Removals not yet taken, and the given leftovers, are made again too: if the
   * core did not restart after all, it still holds them.
   */
  forgetCore(leftovers: Iterable<[string, string]> = []): void {
    const unwanted = [...this.held].filter(([tag, id]) => this.allowList.entries.get(tag)?.id !== id);
    this.held.clear();
    this.partlyAdded.clear();
    for (const [tag, id] of [...unwanted, ...leftovers]) this.held.set(tag, id);
    this.touch(this.held.keys());
    this.touch(this.allowList.entries.keys());
  }

  /** Runs passes until nothing touched is left or a pass fails; one run at a time. */
  converge(): Promise<ConvergeResult> {
    if (this.running !== undefined) {
      this.isRerunWanted = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.isRerunWanted = false;
        await this.pass();
      } while (this.isRerunWanted && this.pending.size > 0);
      const result = this.collected;
      this.collected = { failed: 0 };
      return result;
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pass(): Promise<void> {
    const tags = [...this.pending];
    this.pending.clear();
    let next = 0;
    let isUnreachable = false;
    const worker = async () => {
      while (next < tags.length) {
        const tag = tags[next++] as string;
        if (isUnreachable) {
          this.pending.add(tag);
          continue;
        }
        try {
          await this.settle(tag);
        } catch (error) {
          this.pending.add(tag);
          this.collected.failed++;
          this.collected.firstError ??= error;
          if (isCoreUnreachable(error)) isUnreachable = true;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallelCalls, tags.length) }, worker));
  }

  private async settle(tag: string): Promise<void> {
    const wanted = this.allowList.entries.get(tag);
    const holding = this.held.get(tag);
    if (holding !== undefined && holding !== wanted?.id) {
      for (const inbound of this.inbounds) await this.api.removeUser(inbound.tag, tag);
      this.held.delete(tag);
      this.partlyAdded.delete(tag);
      this.onRemoved(tag);
    }
    if (wanted && (this.held.get(tag) !== wanted.id || this.partlyAdded.has(tag))) {
      // Held from the first call on: if a later inbound fails, a removal must still reach the
      // inbounds that took it.
      this.held.set(tag, wanted.id);
      this.partlyAdded.add(tag);
      for (const inbound of this.inbounds)
        await this.api.addUser(inbound.tag, this.userFor(inbound, tag, wanted.id));
      this.partlyAdded.delete(tag);
    }
  }

  private userFor(inbound: InboundReport, tag: string, id: string): CoreUser {
    return {
      email: tag,
      level: 0,
      account:
        inbound.protocol === "vless"
          ? { protocol: "vless", id, flow: inbound.flow ?? "" }
          : { protocol: "vmess", id },
    };
  }
}
