import type { AllowListResponse, NodeReport } from "../agent/contract/node-api";

const longPollSeconds = 15;
/** An empty answer that came back at once is not asked again sooner than this, as the agent does. */
const minPollMs = 1_000;
const heartbeatMs = 10_000;

/**
 * A node agent without a core: it pulls the allow-list the way agent/allow-list-poll.ts
 * does (a long poll from the version it holds), applies each answer to its own list,
 * reports after every applied change and every 10 s, and notes when it first saw each
 * credential id in a delta (performance.now(), the bench's clock).
 */
export class SimulatedAgent {
  version = 0;
  readonly entries = new Map<string, string>();
  /** Credential id → when a delta first carried it. */
  readonly firstSeen = new Map<string, number>();
  private readonly stopping = new AbortController();
  private polling: Promise<void> | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  errors = 0;

  constructor(
    private readonly origin: string,
    private readonly key: string,
    private readonly name: string,
  ) {}

  private get headers() {
    return { authorization: `Bearer ${this.key}`, "content-type": "application/json" };
  }

  /** The first, full list (no `since`), as a freshly started agent asks for it; answers its size in bytes. */
  async fetchFullList(): Promise<number> {
    const response = await fetch(`${this.origin}/api/nodes/allowlist?since=0`, { headers: this.headers });
    if (!response.ok) throw new Error(`${this.name}: allowlist ${response.status} ${await response.text()}`);
    const text = await response.text();
    const answer = JSON.parse(text) as AllowListResponse;
    if (!answer.full) throw new Error(`${this.name}: the first answer was not a full list`);
    this.apply(answer, performance.now());
    await this.report();
    return text.length;
  }

  start(): void {
    this.polling = this.poll();
    this.heartbeat = setInterval(() => void this.report(), heartbeatMs);
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.heartbeat);
    await this.polling;
  }

  private apply(answer: AllowListResponse, at: number): boolean {
    if (answer.full) this.entries.clear();
    for (const tag of answer.removed) this.entries.delete(tag);
    for (const entry of answer.entries) {
      if (entry.remainingMs <= 0) this.entries.delete(entry.tag);
      else this.entries.set(entry.tag, entry.id);
      if (!answer.full && !this.firstSeen.has(entry.id)) this.firstSeen.set(entry.id, at);
    }
    const changed = answer.version !== this.version || answer.entries.length + answer.removed.length > 0;
    this.version = answer.version;
    return changed;
  }

  private async poll(): Promise<void> {
    const { signal } = this.stopping;
    while (!signal.aborted) {
      const askedAt = performance.now();
      try {
        const response = await fetch(
          `${this.origin}/api/nodes/allowlist?since=${this.version}&wait=${longPollSeconds}`,
          { headers: this.headers, signal },
        );
        if (!response.ok) throw new Error(`allowlist ${response.status}`);
        const answer = (await response.json()) as AllowListResponse;
        if (this.apply(answer, performance.now())) void this.report();
        else if (performance.now() - askedAt < minPollMs)
          await Bun.sleep(minPollMs - (performance.now() - askedAt));
      } catch (error) {
        if (signal.aborted) return;
        this.errors++;
        console.error(`${this.name}: ${(error as Error).message}`);
        await Bun.sleep(1_000);
      }
    }
  }

  private async report(): Promise<void> {
    const report: NodeReport = {
      core: "xray",
      coreVersion: "bench",
      host: `${this.name}.bench.invalid`,
      inbounds: [{ tag: "kannt-vless", protocol: "vless", port: 443, network: "tcp", security: "none" }],
      appliedVersion: this.version,
      credentials: this.entries.size,
    };
    try {
      const response = await fetch(`${this.origin}/api/nodes/report`, {
        method: "POST",
        headers: this.headers,
        body: JSON.stringify(report),
      });
      if (!response.ok) throw new Error(`report ${response.status}`);
      await response.body?.cancel();
    } catch (error) {
      if (this.stopping.signal.aborted) return;
      this.errors++;
      console.error(`${this.name}: ${(error as Error).message}`);
    }
  }
}
