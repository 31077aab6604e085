import type { ProbeEntry, ProbeResult } from "../contract/probe-api.ts";
import type { CoreKind } from "../core-messages.ts";
import type { Logger } from "../log.ts";
import { ProductError } from "../product-api.ts";
import { clientConfig } from "./client-config.ts";
import { CoreClient, freeLoopbackPort } from "./core-client.ts";
import { EntryHealth } from "./entry-health.ts";
import { diagnose } from "./failure-diagnosis.ts";
import type { ProbeProductApi } from "./product-api.ts";
import { fetchThroughSocks } from "./socks-fetch.ts";

export type ProbeRoundsOptions = {
  core: CoreKind;
  coreBinary: string;
  target: string;
  intervalSeconds: number;
  product: ProbeProductApi;
  log: Logger;
  /** How long one fetch through an entry may take. */
  timeoutMs?: number;
  /** Entries fetched through at once. */
  concurrency?: number;
};

const maxErrorLength = 300;

const refusalHints: Record<number, string> = {
  401: "PROBE_KEY is not a key the product knows (rotated in the panel, or mistyped): put the current key in place",
  403: "the probe is disabled in the panel",
  409: "another probe agent is running with this PROBE_KEY: one key serves one agent; stop the other one, or make a new probe for this machine",
};

/** Runs `work` over `items`, at most `limit` at a time, answers in the items' order. */
async function mapLimited<Item, Result>(
  items: Item[],
  limit: number,
  work: (item: Item) => Promise<Result>,
): Promise<Result[]> {
  const results = new Array<Result>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as Item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The probe agent's loop (DESIGN §8): every PROBE_INTERVAL_SECONDS, the entries from the
 * product, the core as their client (restarted only when they change), PROBE_TARGET fetched
 * through each, and the results back. A refusal or an unreachable product is logged and
 * tried again next round; a probe whose own core cannot start reports nothing, so a
 * broken probe does not mark entries down.
 */
export class ProbeRounds {
  readonly coreClient: CoreClient;
  private readonly health: EntryHealth;
  private readonly ports = new Map<number, number>();
  private readonly stopping = new AbortController();
  private refusedWith: number | undefined;
  private readonly options: ProbeRoundsOptions;
  private readonly target: URL;

  constructor(options: ProbeRoundsOptions) {
    this.options = options;
    this.target = new URL(options.target);
    this.coreClient = new CoreClient(options.core, options.coreBinary, options.log);
    this.health = new EntryHealth(options.log);
  }

  async run(): Promise<void> {
    const intervalMs = this.options.intervalSeconds * 1000;
    while (!this.stopping.signal.aborted) {
      const startedAt = Date.now();
      try {
        await this.round();
      } catch (error) {
        this.options.log("error", "probe round failed", { error: (error as Error).message });
      }
      await this.wait(intervalMs - (Date.now() - startedAt));
    }
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.coreClient.close();
  }

  private wait(ms: number): Promise<void> {
    if (ms <= 0 || this.stopping.signal.aborted) return Promise.resolve();
    const signal = this.stopping.signal;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  /** One round; answers the results it sent (none when it could not probe). */
  async round(): Promise<ProbeResult[]> {
    const { log, product } = this.options;
    let listed: Awaited<ReturnType<ProbeProductApi["entries"]>>;
    try {
      listed = await product.entries();
    } catch (error) {
      this.productFailed(error, "probe entries fetch failed");
      return [];
    }
    this.accepted();
    const { credential, entries } = listed;
    const config = await this.configFor(entries, credential);
    const dialed = entries.filter((entry) => !config.unsupported.has(entry.id));
    try {
      const ports = dialed.map((entry) => this.ports.get(entry.id) ?? 0);
      if (dialed.length === 0) await this.coreClient.stop();
      else if ((await this.coreClient.apply(config.config, ports)) !== "kept")
        log("info", "the probe's core runs as the client of the entries", {
          entries: entries.length,
          dialed: dialed.length,
          unsupported: [...config.unsupported].map(([id, reason]) => `${id}: ${reason}`),
          pid: this.coreClient.pid,
        });
    } catch (error) {
      // Its ports may have been taken meanwhile: the next round picks new ones.
      this.ports.clear();
      log("error", "the probe's core did not start: no results are sent this round", {
        error: (error as Error).message,
      });
      return [];
    }
    const results = await mapLimited(entries, this.options.concurrency ?? 16, (entry) =>
      this.probe(entry, config.unsupported.get(entry.id)),
    );
    if (dialed.length > 0 && !this.coreClient.isRunning()) {
      // Every fetch found no core to go through: the probe's failure, not the entries'.
      log("error", "the probe's core stopped during the round: no results are sent this round");
      return [];
    }
    this.health.observe(entries, results);
    try {
      await product.results(results);
      this.accepted();
    } catch (error) {
      this.productFailed(error, "probe results not delivered");
    }
    return results;
  }

  private async configFor(entries: ProbeEntry[], credential: string) {
    const listed = new Set(entries.map((entry) => entry.id));
    for (const id of this.ports.keys()) if (!listed.has(id)) this.ports.delete(id);
    for (const entry of entries)
      if (!this.ports.has(entry.id)) this.ports.set(entry.id, await freeLoopbackPort());
    return clientConfig(this.options.core, credential, entries, (id) => this.ports.get(id) ?? 0);
  }

  private async probe(entry: ProbeEntry, unsupported: string | undefined): Promise<ProbeResult> {
    // No verdict: a probe that cannot dial an entry as apps do must not take a working one out.
    if (unsupported) return { entryId: entry.id, ok: false, error: unsupported, unsupported: true };
    const port = this.ports.get(entry.id) ?? 0;
    const outcome = await fetchThroughSocks(port, this.target, this.options.timeoutMs ?? 10_000);
    if (outcome.ok) return { entryId: entry.id, ok: true, latencyMs: outcome.latencyMs };
    const error = outcome.answered ? outcome.error : await diagnose(entry, outcome.error);
    return { entryId: entry.id, ok: false, error: error.slice(0, maxErrorLength) };
  }

  private productFailed(error: unknown, message: string): void {
    const status = error instanceof ProductError ? error.status : undefined;
    const hint = status === undefined ? undefined : refusalHints[status];
    if (hint && status !== this.refusedWith) {
      this.refusedWith = status;
      this.options.log("error", "the product refuses this probe", {
        status,
        hint,
        answer: (error as Error).message,
      });
    } else if (!hint) this.options.log("warn", message, { error: (error as Error).message });
  }

  private accepted(): void {
    if (this.refusedWith === undefined) return;
    this.options.log("info", "the product accepts this probe again", { status: this.refusedWith });
    this.refusedWith = undefined;
  }
}
