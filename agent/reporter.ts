import type { NodeReport } from "./contract/node-api.ts";
import type { Logger } from "./log.ts";
import type { ProductApi } from "./product-api.ts";

/**
 * The node's report of itself (POST /api/nodes/report), sent at start, after each applied
 * change and as a heartbeat. One is in flight at a time; a change during it sends one more
 * right after, with the state as it is then.
 */
export class Reporter {
  private sending: Promise<void> | undefined;
  private isWanted = false;

  private readonly product: ProductApi;
  private readonly build: () => NodeReport;
  private readonly log: Logger;
  private readonly signal: AbortSignal;

  constructor(product: ProductApi, build: () => NodeReport, log: Logger, signal: AbortSignal) {
    this.product = product;
    this.build = build;
    this.log = log;
    this.signal = signal;
  }

  send(): Promise<void> {
    this.isWanted = true;
    this.sending ??= (async () => {
      while (this.isWanted && !this.signal.aborted) {
        this.isWanted = false;
        try {
          await this.product.report(this.build());
        } catch (error) {
          this.log("warn", "report failed", { cause: (error as Error).message });
        }
      }
    })().finally(() => {
      this.sending = undefined;
    });
    return this.sending;
  }
}
