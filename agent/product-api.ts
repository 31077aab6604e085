import type {
  AllowEntry,
  AllowListResponse,
  NodeEvents,
  NodeReport,
} from "../bff/modules/access/nodes/node-wire";

/** The product's node API as the agent uses it (a fake stands in for it in unit tests). */
export type ProductApi = {
  /** `skipped`: entries left out because the core could not take them. */
  allowList(
    since: number,
    waitSeconds: number,
    signal?: AbortSignal,
  ): Promise<AllowListResponse & { skipped?: number }>;
  report(report: NodeReport): Promise<void>;
  events(events: NodeEvents): Promise<void>;
};

export class ProductError extends Error {
  constructor(
    message: string,
    /** The HTTP status when the product answered; undefined when it could not be reached. */
    readonly status?: number,
    /** The error code of the answer's body (`node_disabled`, `node_key_rotated`, …). */
    readonly code?: string,
  ) {
    super(message);
  }
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isEntry = (value: unknown): value is AllowEntry => {
  const entry = value as AllowEntry;
  return (
    typeof value === "object" &&
    value !== null &&
    typeof entry.tag === "string" &&
    entry.tag !== "" &&
    typeof entry.id === "string" &&
    uuidPattern.test(entry.id) &&
    typeof entry.remainingMs === "number" &&
    Number.isFinite(entry.remainingMs)
  );
};

/**
 * The allow-list answer checked before anything acts on it: a wrong shape is an error
 * (retried), never an empty list that would remove everyone. An entry the core could not
 * take (an id that is no UUID) is left out, not the whole answer.
 */
export function parseAllowList(body: unknown): AllowListResponse & { skipped: number } {
  const answer = body as Partial<AllowListResponse> | null;
  if (
    typeof answer !== "object" ||
    answer === null ||
    typeof answer.version !== "number" ||
    !Number.isSafeInteger(answer.version) ||
    answer.version < 0 ||
    typeof answer.full !== "boolean" ||
    !Array.isArray(answer.entries) ||
    !Array.isArray(answer.removed) ||
    !answer.removed.every((tag) => typeof tag === "string")
  )
    throw new ProductError(
      "The allow-list answer has not the node API's shape (version, full, entries, removed).",
    );
  const entries = answer.entries.filter(isEntry);
  return {
    version: answer.version,
    full: answer.full,
    entries,
    removed: answer.removed,
    skipped: answer.entries.length - entries.length,
  };
}

async function failure(response: Response, what: string): Promise<ProductError> {
  let detail = "";
  let code: string | undefined;
  try {
    const body = (await response.json()) as { error?: { message?: unknown; code?: unknown } };
    if (typeof body?.error?.message === "string") detail = `: ${body.error.message}`;
    if (typeof body?.error?.code === "string") code = body.error.code;
  } catch {
    // A proxy's HTML error page: the status says enough.
  }
  const hint =
    response.status === 401
      ? " (check NODE_KEY)"
      : response.status === 403
        ? " (the node is disabled in the panel)"
        : "";
  return new ProductError(`${what} answered ${response.status}${detail}${hint}`, response.status, code);
}

/**
 * The product's node API over HTTP. Every call names this agent's instance
 * (`X-Agent-Instance`, kept in AGENT_STATE across restarts): one node key is one agent,
 * and the product refuses a second one rather than merge two machines into one node.
 */
export function productApi(productUrl: string, nodeKey: string, instanceId: string): ProductApi {
  const headers = {
    authorization: `Bearer ${nodeKey}`,
    "content-type": "application/json",
    "x-agent-instance": instanceId,
  };

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${productUrl}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw await failure(response, `POST ${path}`);
    await response.body?.cancel();
  };

  return {
    async allowList(since, waitSeconds, signal) {
      const response = await fetch(`${productUrl}/api/nodes/allowlist?since=${since}&wait=${waitSeconds}`, {
        headers,
        // The long poll's own wait, plus room for a slow answer.
        signal: AbortSignal.any([
          AbortSignal.timeout((waitSeconds + 20) * 1000),
          ...(signal ? [signal] : []),
        ]),
      });
      if (!response.ok) throw await failure(response, "GET /api/nodes/allowlist");
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new ProductError("GET /api/nodes/allowlist answered something that is not JSON");
      }
      return parseAllowList(body);
    },
    report: (report) => post("/api/nodes/report", report),
    events: (events) => post("/api/nodes/events", events),
  };
}
