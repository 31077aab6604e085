import type { InboundReport, NodeReport } from "../bff/modules/access/node-wire";
import { parseAccessLine } from "./access-log";
import { AccessSync } from "./access-sync";
import { pollAllowList } from "./allow-list-poll";
import { ConnectionBursts } from "./connection-bursts";
import type { CoreApi } from "./core-api";
import type { CoreKind } from "./core-messages";
import { CoreWatch } from "./core-watch";
import { EventSender } from "./event-sender";
import type { Logger } from "./log";
import { LogTail } from "./log-tail";
import type { ProductApi } from "./product-api";
import { Reporter } from "./reporter";
import { Revocation, type Sockets } from "./revocation";

export type AgentOptions = {
  core: CoreKind;
  coreVersion: string;
  nodeHost: string;
  inbounds: InboundReport[];
  accessLogPath: string;
  statePath: string;
  coreApi: CoreApi;
  product: ProductApi;
  sockets: Sockets;
  log: Logger;
  now?: () => number;
};

const reportEveryMs = 10_000;
const eventsEveryMs = 10_000;
const pruneEveryMs = 30_000;
/** How much of the access log is read back at start, for the connections opened before it. */
const historyBytes = 4 * 1024 * 1024;

/** The node agent: the loops that keep the core in step with the product, and report back. */
export class Agent {
  readonly sync: AccessSync;
  private readonly revocation: Revocation;
  private readonly events: EventSender;
  private readonly tail: LogTail;
  private readonly watch: CoreWatch;
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  private readonly stopping = new AbortController();
  private readonly reporter: Reporter;
  private readonly bursts: ConnectionBursts;
  private revoking: string[] = [];

  constructor(private readonly options: AgentOptions) {
    const now = options.now ?? Date.now;
    const ports = [...new Set(options.inbounds.map((inbound) => inbound.port))];
    const portOfInbound = new Map(options.inbounds.map((inbound) => [inbound.tag, inbound.port]));
    this.revocation = new Revocation(ports, portOfInbound, options.sockets, options.log, now, (tag) => {
      const wanted = this.sync.allowList.entries.get(tag);
      return wanted !== undefined && this.sync.users.held.get(tag) === wanted.id;
    });
    this.bursts = new ConnectionBursts(now);
    this.sync = new AccessSync({
      api: options.coreApi,
      inbounds: options.inbounds,
      statePath: options.statePath,
      now,
      log: options.log,
      onRemoved: (tag) => this.revokeSoon(tag),
    });
    this.events = new EventSender(
      options.coreApi,
      options.product,
      options.log,
      (tag) => this.isKnownTag(tag),
      now,
    );
    this.tail = new LogTail(options.accessLogPath, (line) => this.onAccessLine(line));
    this.watch = new CoreWatch(options.coreApi);
    this.reporter = new Reporter(options.product, () => this.nodeReport(), options.log, this.stopping.signal);
  }

  async start(): Promise<void> {
    // Before the saved list goes back: its expired entries are revoked as it loads.
    await this.tail.skipToEnd({ maxBytes: historyBytes, onLine: (text) => this.onPastLine(text) });
    // Seen once before the push: a core that restarts (or only comes up) after it is noticed.
    await this.watch.check();
    await this.sync.load();
    this.revocation.forgetUnless((tag) => this.isKnownTag(tag));
    void this.report();
    this.every(250, () => this.readLog());
    this.every(1_000, () => this.tick());
    this.every(reportEveryMs, () => this.report());
    this.every(eventsEveryMs, () => this.events.flush());
    this.every(pruneEveryMs, () => this.revocation.prune());
    void pollAllowList({
      product: this.options.product,
      sync: this.sync,
      log: this.options.log,
      signal: this.stopping.signal,
      onApplied: () => void this.report(),
      now: this.options.now,
    });
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    for (const timer of this.timers) clearInterval(timer);
    await this.sync.save();
    await this.events.flush();
    this.options.coreApi.close();
  }

  private every(milliseconds: number, work: () => Promise<unknown>): void {
    let isRunning = false;
    this.timers.push(
      setInterval(() => {
        if (isRunning) return;
        isRunning = true;
        work()
          .catch((error) =>
            this.options.log("error", "agent task failed", { cause: (error as Error).message }),
          )
          .finally(() => {
            isRunning = false;
          });
      }, milliseconds),
    );
  }

  /** Each second: expiry by the agent's clock, retries, and a look at whether the core restarted. */
  private async tick(): Promise<void> {
    if ((await this.watch.check()) === "restarted") {
      this.options.log("warn", "the core restarted; pushing every credential again", {
        credentials: this.sync.allowList.entries.size,
      });
      await this.sync.coreRestarted();
      void this.report();
    }
    if (await this.sync.sweep()) void this.report();
  }

  private async readLog(): Promise<void> {
    while (await this.tail.poll()) {
      // A burst: keep reading.
    }
  }

  private onAccessLine(text: string): void {
    const line = parseAccessLine(text);
    if (!line || !this.isKnownTag(line.tag)) return;
    this.revocation.record(line);
    if (this.bursts.isNew(line.tag, line.clientIp))
      this.events.connection({ tag: line.tag, clientIp: line.clientIp, at: line.at, success: true });
  }

  /**
   * A line written before the agent started: its endpoint may still be open (the next
   * prune drops those that are not), but it was reported, if at all, by the agent before.
   */
  private onPastLine(text: string): void {
    const line = parseAccessLine(text);
    if (line) this.revocation.record(line);
  }

  /**
   * Removals come one by one as the core takes them; those of the same moment are closed
   * together (one `ss` run for a full resync's many, not one each).
   */
  private revokeSoon(tag: string): void {
    this.events.tagsLeft([tag]);
    this.revoking.push(tag);
    if (this.revoking.length > 1) return;
    setTimeout(() => {
      const tags = this.revoking.splice(0);
      // Lines already written name connections opened up to now: read them before closing.
      void this.readLog()
        .catch(() => undefined)
        .then(() => this.revocation.revoke(tags));
    }, 20);
  }

  /** Tags of this product's devices: an operator's own users on the same core are not reported. */
  private isKnownTag(tag: string): boolean {
    return (
      this.sync.allowList.entries.has(tag) || this.sync.users.held.has(tag) || this.events.isRecentlyLeft(tag)
    );
  }

  /** Client endpoints known per device, for closing them on revocation. */
  get trackedEndpoints(): number {
    return this.revocation.trackedEndpoints;
  }

  private report(): Promise<void> {
    return this.reporter.send();
  }

  nodeReport(): NodeReport {
    return {
      core: this.options.core,
      coreVersion: this.options.coreVersion,
      host: this.options.nodeHost,
      inbounds: this.options.inbounds,
      appliedVersion: this.sync.appliedVersion,
      credentials: this.sync.users.held.size,
    };
  }
}
