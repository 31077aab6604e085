import { TypeCompiler } from "@sinclair/typebox/compiler";
import { type ProbeEntry, type ProbeResult, probeResults } from "../../agent/contract/probe-api";

const resultsBody = TypeCompiler.Compile(probeResults);

/**
 * The product's probe API as a probe agent sees it (contract/probe-api.ts), small enough to
 * steer from a test: the entries it serves can be changed between rounds, and every round of
 * results it was sent is kept (a body outside the contract is refused with 400 and noted).
 */
export class FakeProbeApi {
  entries: ProbeEntry[] = [];
  /** Each POST /api/probes/results, in order. */
  readonly rounds: ProbeResult[][] = [];
  readonly badBodies: unknown[] = [];
  readonly instances = new Set<string>();
  readonly refusedCalls: string[] = [];
  entryCalls = 0;
  /** While set, every call is answered with this status and code. */
  refusal: { status: number; code: string } | undefined;
  private server: ReturnType<typeof Bun.serve> | undefined;
  private readonly probeKey: string;
  private readonly credential: string;

  constructor(probeKey: string, credential: string) {
    this.probeKey = probeKey;
    this.credential = credential;
  }

  start(): number {
    this.server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => this.handle(request) });
    return this.server.port ?? 0;
  }

  stop(): void {
    void this.server?.stop(true);
  }

  /** The last result reported for each entry, by entry id. */
  latest(): Map<number, ProbeResult> {
    const latest = new Map<number, ProbeResult>();
    for (const round of this.rounds) for (const result of round) latest.set(result.entryId, result);
    return latest;
  }

  private refuse(request: Request, status: number, code: string): Response {
    this.refusedCalls.push(`${request.method} ${new URL(request.url).pathname}`);
    return Response.json({ success: false, error: { code, message: "Refused by the test." } }, { status });
  }

  private async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    this.instances.add(request.headers.get("x-agent-instance") ?? "");
    if (this.refusal) return this.refuse(request, this.refusal.status, this.refusal.code);
    if (request.headers.get("authorization") !== `Bearer ${this.probeKey}`)
      return this.refuse(request, 401, "probe_key_unknown");
    if (request.method === "GET" && url.pathname === "/api/probes/entries") {
      this.entryCalls++;
      return Response.json({ credential: this.credential, entries: this.entries });
    }
    if (request.method === "POST" && url.pathname === "/api/probes/results") {
      const body: unknown = await request.json();
      if (!resultsBody.Check(body)) {
        this.badBodies.push(body);
        return Response.json(
          { success: false, error: { code: "bad_request", message: "Not the probe API's results." } },
          { status: 400 },
        );
      }
      this.rounds.push(body.results);
      return Response.json({ success: true });
    }
    return Response.json(
      { success: false, error: { code: "not_found", message: "There is no such API endpoint." } },
      { status: 404 },
    );
  }
}
