import { parseAccessLine } from "./access-log.ts";
import { AccessSync } from "./access-sync.ts";
import { pollAllowList } from "./allow-list-poll.ts";
import { ConnectionBursts } from "./connection-bursts.ts";
import type { InboundReport, NodeReport } from "./contract/node-api.ts";
import type { CoreApi } from "./core-api.ts";
import type { CoreKind } from "./core-messages.ts";
import { CoreWatch } from "./core-watch.ts";
import { EventSender } from "./event-sender.ts";
import type { Logger } from "./log.ts";
import { readLinesBackwards } from "./log-history.ts";
import { LogTail } from "./log-tail.ts";
import type { ProductApi } from "./product-api.ts";
import { RefusalWatch, watchedProduct } from "./refusal.ts";
import { Reporter } from "./reporter.ts";
import { Revocation, type Sockets } from "./revocation.ts";

export type AgentOptions = {
  core: CoreKind;
  coreVersion: string;
  nodeHost: string;
  inbounds: InboundReport[];
  accessLogPath: string;
  statePath: string;
  /** This agent's name towards the product, kept in AGENT_STATE (agent-instance.ts). */
  instanceId: string;
  coreApi: CoreApi;
  product: ProductApi;
  sockets: Sockets;
  log: Logger;
  now?: () => number;
};

const reportEveryMs = 10_000;
const eventsEveryMs = 10_000;
const pruneEveryMs = 30_000;
/**
 * How far back the access log is read at start to learn whose the open connections are
 * (a few seconds of reading); a connection older than that is closed, and its app, if it
 * may still connect, connects again and is logged.
 */
const relearnMaxBytes = 256 * 1024 * 1024;

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
  private readonly refusals: RefusalWatch;
  private readonly product: ProductApi;
  private revoking: string[] = [];
  private isCoreUp = false;
  private readonly now: () => number;
  private readonly options: AgentOptions;

  constructor(options: AgentOptions) {
    this.options = options;
    const now = options.now ?? Date.now;
    this.now = now;
    this.refusals = new RefusalWatch(
      undefined,
      now,
      options.log,
      () => this.sync.empty(),
      () => void this.sync.save(),
    );
    this.product = watchedProduct(options.product, this.refusals);
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
      identity: () => ({ instanceId: options.instanceId, refusal: this.refusals.refusal }),
    });
    this.events = new EventSender(
      options.coreApi,
      this.product,
      options.log,
      (tag) => this.isKnownTag(tag),
      now,
    );
    this.tail = new LogTail(options.accessLogPath, (line) => this.onAccessLine(line));
    this.watch = new CoreWatch(options.coreApi);
    this.reporter = new Reporter(this.product, () => this.nodeReport(), options.log, this.stopping.signal);
  }

  async start(): Promise<void> {
    await this.relearnOpenConnections();
    // Seen once before the push: a core that restarts (or only comes up) after it is noticed.
    await this.watch.check();
    this.isCoreUp = this.watch.isUp;
    if (!this.isCoreUp)
      this.options.log("warn", "the core's API does not answer; the node reports its core down");
    const uptime = this.watch.uptimeSeconds;
    if (uptime !== undefined) this.events.countersSince = this.now() - uptime * 1000;
    const saved = await this.sync.load();
    this.refusals.restore(saved?.refusal);
    // Lines written since the agent began to follow the log name connections too.
    await this.readLog();
    const closed = await this.revocation.closeUnallowed((tag) => this.sync.allowList.entries.has(tag));
    if (closed > 0)
      this.options.log(
        "info",
        "connections closed at start: their device may not connect, or no log line names them",
        {
          count: closed,
        },
      );
    await this.refusals.check();
    void this.report();
    this.every(250, () => this.readLog());
    this.every(1_000, () => this.tick());
    this.every(reportEveryMs, () => this.report());
    this.every(eventsEveryMs, () => this.events.flush());
    this.every(pruneEveryMs, () => this.pruneConnections());
    void pollAllowList({
      product: this.product,
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

  /**
   * Before anything is added or removed: whose is every connection already open on the
   * managed ports? The access log, read backwards from where the agent starts following
   * it, says; whatever it cannot name is closed once the allow-list is known.
   */
  private async relearnOpenConnections(): Promise<void> {
    const end = await this.tail.skipToEnd();
    const found = await this.revocation.relearn((onLine) =>
      end === undefined
        ? Promise.resolve()
        : readLinesBackwards(this.options.accessLogPath, end, onLine, relearnMaxBytes),
    );
    if (found.open > 0) this.options.log("info", "open connections found at start", found);
  }

  /** Each second: expiry by the agent's clock, retries, the product's refusal, and the core's state. */
  private async tick(): Promise<void> {
    const state = await this.watch.check();
    if (state === "down" && this.isCoreUp) {
      this.isCoreUp = false;
      this.options.log("error", "the core's API does not answer; the node reports its core down");
      void this.report();
    }
    if (state === "restarted") {
      if (!this.isCoreUp) this.options.log("info", "the core answers again");
      this.isCoreUp = true;
      this.options.log("warn", "the core restarted; pushing every credential again", {
        credentials: this.sync.allowList.entries.size,
      });
      await this.sync.coreRestarted();
      void this.report();
    }
    await this.refusals.check();
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
        .then(() => this.revocation.revoke(tags, () => this.readLog()));
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

  /** Forgets ended connections and notes the ones no line names (every 30 s). */
  pruneConnections(): Promise<void> {
    return this.revocation.prune();
  }

  /** What the core holds, as the core took it: a core that does not answer holds nothing. */
  nodeReport(): NodeReport {
    return {
      core: this.options.core,
      coreVersion: this.options.coreVersion,
      host: this.options.nodeHost,
      inbounds: this.options.inbounds,
      appliedVersion: this.sync.appliedVersion,
      credentials: this.isCoreUp ? this.sync.users.accepted : 0,
      coreState: this.isCoreUp ? "up" : "down",
    };
  }
}
