import type { AllowEntry, AllowListResponse, NodeEvents, NodeReport } from "../../agent/contract/node-api";

/**
 * The product's node API as the agent sees it (DESIGN §8 paths and shapes), small enough to
 * steer from a test: a versioned allow-list with deltas and long polls, and what the agent
 * reported and sent.
 */
export class FakeNodeApi {
  version = 0;
  private readonly entries = new Map<string, { id: string; endsAt: number }>();
  private readonly changes: { version: number; tag: string }[] = [];
  private wake: (() => void)[] = [];
  readonly reports: NodeReport[] = [];
  readonly events: NodeEvents[] = [];
  readonly refusedCalls: string[] = [];
  /** Every `X-Agent-Instance` an agent sent. */
  readonly instances = new Set<string>();
  /** While set, every call is answered with this status and code (403 disabled, 401 key rotated, …). */
  refusal: { status: number; code: string } | undefined;
  private server: ReturnType<typeof Bun.serve> | undefined;

  constructor(private readonly nodeKey: string) {}

  allow(tag: string, id: string, remainingMs: number): void {
    this.entries.set(tag, { id, endsAt: Date.now() + remainingMs });
    this.changed(tag);
  }

  revoke(tag: string): void {
    this.entries.delete(tag);
    this.changed(tag);
  }

  private changed(tag: string): void {
    this.version++;
    this.changes.push({ version: this.version, tag });
    for (const wake of this.wake) wake();
    this.wake = [];
  }

  private entryOf(tag: string): AllowEntry | undefined {
    const entry = this.entries.get(tag);
    return entry ? { tag, id: entry.id, remainingMs: entry.endsAt - Date.now() } : undefined;
  }

  answer(since: number): AllowListResponse {
    if (since === 0 || since > this.version) {
      const entries = [...this.entries.keys()].flatMap((tag) => this.entryOf(tag) ?? []);
      return { version: this.version, full: true, entries, removed: [] };
    }
    const tags = new Set(this.changes.filter((change) => change.version > since).map((change) => change.tag));
    const entries: AllowEntry[] = [];
    const removed: string[] = [];
    for (const tag of tags) {
      const entry = this.entryOf(tag);
      if (entry) entries.push(entry);
      else removed.push(tag);
    }
    return { version: this.version, full: false, entries, removed };
  }

  start(port = 0): number {
    this.server = Bun.serve({
      hostname: "127.0.0.1",
      port,
      // Longer than the agent's long poll.
      idleTimeout: 60,
      fetch: (request) => this.handle(request),
    });
    return this.server.port ?? 0;
  }

  stop(): void {
    void this.server?.stop(true);
    this.server = undefined;
    for (const wake of this.wake) wake();
    this.wake = [];
  }

  private async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    this.instances.add(request.headers.get("x-agent-instance") ?? "");
    if (this.refusal) {
      this.refusedCalls.push(`${request.method} ${url.pathname}`);
      return Response.json(
        { success: false, error: { code: this.refusal.code, message: "Refused by the test." } },
        { status: this.refusal.status },
      );
    }
    if (request.headers.get("authorization") !== `Bearer ${this.nodeKey}`) {
      this.refusedCalls.push(`${request.method} ${url.pathname}`);
      return Response.json(
        { success: false, error: { code: "node_key_unknown", message: "Unknown node key." } },
        { status: 401 },
      );
    }
    if (request.method === "GET" && url.pathname === "/api/nodes/allowlist") {
      const since = Number(url.searchParams.get("since") ?? 0);
      const waitSeconds = Math.min(Number(url.searchParams.get("wait") ?? 0), 20);
      if (since === this.version && waitSeconds > 0)
        await new Promise<void>((resolve) => {
          this.wake.push(resolve);
          setTimeout(resolve, waitSeconds * 1000);
        });
      return Response.json(this.answer(since));
    }
    if (request.method === "POST" && url.pathname === "/api/nodes/report") {
      this.reports.push((await request.json()) as NodeReport);
      return Response.json({ success: true });
    }
    if (request.method === "POST" && url.pathname === "/api/nodes/events") {
      this.events.push((await request.json()) as NodeEvents);
      return Response.json({ success: true, ignored: 0 });
    }
    return Response.json(
      { success: false, error: { code: "not_found", message: "There is no such API endpoint." } },
      { status: 404 },
    );
  }
}
