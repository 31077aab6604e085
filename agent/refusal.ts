import type { Logger } from "./log.ts";
import { type ProductApi, ProductError } from "./product-api.ts";

/**
 * Why the product refuses this node: `disabled` (403: an operator disabled it), `key` (401:
 * the key was rotated or is unknown), `conflict` (409: another agent runs with this key).
 */
export type RefusalKind = "disabled" | "key" | "conflict";

export type Refusal = { kind: RefusalKind; since: number };

/**
 * How long a node whose key the product no longer takes keeps serving what it holds: long
 * enough to put a rotated key in place without cutting anyone, short enough that a stolen
 * or retired node's customers do not ride on for the rest of their periods.
 */
export const refusedKeyGraceMs = 60 * 60 * 1000;

const kindOf: Record<number, RefusalKind> = { 401: "key", 403: "disabled", 409: "conflict" };

const hints: Record<RefusalKind, string> = {
  disabled: "the node is disabled in the panel: every credential is removed from the core now",
  key: "NODE_KEY is not this node's key any more (rotated in the panel, or mistyped): put the new key in place; the core keeps what it holds for at most an hour",
  conflict:
    "another agent is running with this NODE_KEY: one key serves one agent; stop the other one, or add a new node for this machine; the core keeps what it holds for at most an hour",
};

/**
 * DESIGN §8 "A node the product refuses": fail-static serves paying customers while the
 * product cannot be reached, not while it answers "no". Every answer of the product passes
 * here; a refusal empties the core at once (disabled) or after an hour (key, conflict), and
 * the first answer that is not a refusal ends it. Kept in AGENT_STATE, so a restart does
 * not start the hour again.
 */
export class RefusalWatch {
  private isEmptied = false;

  private current: Refusal | undefined;
  private readonly now: () => number;
  private readonly log: Logger;

  /** Removes every credential from the core and the saved list. */
  private readonly emptyCore: (kind: RefusalKind) => Promise<void>;

  /** The refusal changed: save it. */
  private readonly changed: () => void;

  constructor(
    current: Refusal | undefined,
    now: () => number,
    log: Logger,
    emptyCore: (kind: RefusalKind) => Promise<void>,
    changed: () => void,
  ) {
    this.current = current;
    this.now = now;
    this.log = log;
    this.emptyCore = emptyCore;
    this.changed = changed;
  }

  get refusal(): Refusal | undefined {
    return this.current;
  }

  /** The refusal saved before a restart: its hour goes on from when it began. */
  restore(saved: Refusal | undefined): void {
    this.current = saved;
    this.isEmptied = false;
  }

  /** A call the product answered; a failure that is no answer (network, timeout, 5xx) says nothing. */
  async observe(outcome: "accepted" | unknown): Promise<void> {
    if (outcome === "accepted") return this.accepted();
    if (!(outcome instanceof ProductError) || outcome.status === undefined) return;
    const kind = kindOf[outcome.status];
    if (kind) await this.refused(kind, outcome.message);
  }

  /** Each second: a refused key's hour may be over. */
  async check(): Promise<void> {
    const current = this.current;
    if (!current || this.isEmptied) return;
    if (current.kind === "disabled" || this.now() - current.since >= refusedKeyGraceMs)
      await this.empty(current);
  }

  private async refused(kind: RefusalKind, message: string): Promise<void> {
    if (this.current?.kind !== kind) {
      this.current = { kind, since: this.now() };
      this.isEmptied = false;
      this.log("error", "the product refuses this node", {
        reason: kind,
        hint: hints[kind],
        answer: message,
      });
      this.changed();
    }
    await this.check();
  }

  private async accepted(): Promise<void> {
    const current = this.current;
    if (!current) return;
    this.current = undefined;
    this.isEmptied = false;
    this.log("info", "the product accepts this node again", {
      refusedFor: `${Math.round((this.now() - current.since) / 1000)} s`,
      reason: current.kind,
    });
    this.changed();
  }

  private async empty(current: Refusal): Promise<void> {
    this.isEmptied = true;
    this.log("error", "every credential removed from the core: the product refuses this node", {
      reason: current.kind,
      refusedFor: `${Math.round((this.now() - current.since) / 1000)} s`,
    });
    await this.emptyCore(current.kind);
  }
}

/** The product's API with every answer shown to the watch first. */
export function watchedProduct(product: ProductApi, watch: RefusalWatch): ProductApi {
  const watched = async <Result>(call: () => Promise<Result>): Promise<Result> => {
    let result: Result;
    try {
      result = await call();
    } catch (error) {
      await watch.observe(error);
      throw error;
    }
    await watch.observe("accepted");
    return result;
  };
  return {
    allowList: (since, waitSeconds, signal) => watched(() => product.allowList(since, waitSeconds, signal)),
    report: (report) => watched(() => product.report(report)),
    events: (events) => watched(() => product.events(events)),
  };
}
