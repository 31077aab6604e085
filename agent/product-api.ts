import { TypeCompiler } from "@sinclair/typebox/compiler";
import {
  type AllowEntry,
  type AllowListResponse,
  allowListResponse,
  type NodeEvents,
  type NodeReport,
  nodeAck,
  nodeEventsAck,
} from "./contract/node-api.ts";

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
  /** The HTTP status when the product answered; undefined when it could not be reached. */
  readonly status?: number;
  /** The error code of the answer's body (`node_disabled`, `node_key_rotated`, …). */
  readonly code?: string;

  constructor(message: string, status?: number, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const allowListAnswer = TypeCompiler.Compile(allowListResponse);
const ackAnswer = TypeCompiler.Compile(nodeAck);
const eventsAckAnswer = TypeCompiler.Compile(nodeEventsAck);

export type Checker = {
  Check(value: unknown): boolean;
  Errors(value: unknown): Iterable<{ path: string; message: string }>;
};

/** The first place an answer leaves the contract, for the log: "/entries/3/remainingMs: Expected number". */
export function firstMismatch(checker: Checker, body: unknown): string {
  for (const error of checker.Errors(body)) return `${error.path || "/"}: ${error.message}`;
  return "";
}

/**
 * The allow-list answer checked against the contract before anything acts on it: a wrong
 * shape is an error (retried), never an empty list that would remove everyone. An entry the
 * core could not take (an id that is no UUID) is left out, not the whole answer.
 */
export function parseAllowList(body: unknown): AllowListResponse & { skipped: number } {
  if (!allowListAnswer.Check(body))
    throw new ProductError(
      `The allow-list answer is not the node API's (${firstMismatch(allowListAnswer, body)}).`,
    );
  const entries = body.entries.filter(
    (entry: AllowEntry) => uuidPattern.test(entry.id) && Number.isFinite(entry.remainingMs),
  );
  return {
    version: body.version,
    full: body.full,
    entries,
    removed: body.removed,
    skipped: body.entries.length - entries.length,
  };
}

/** A report's or a batch's answer: the contract's acknowledgement, or an error (the call is tried again). */
function checkAck(what: string, checker: Checker, body: unknown): void {
  if (!checker.Check(body))
    throw new ProductError(
      `${what} answered something that is not the node API's (${firstMismatch(checker, body)}).`,
    );
}

/** What a refusal's status means for a node; a probe names its own key instead. */
const nodeHints: Record<number, string> = {
  401: " (check NODE_KEY)",
  403: " (the node is disabled in the panel)",
};

/** A refusal or error answer as a ProductError: status, the body's code and message, and a hint. */
export async function failure(
  response: Response,
  what: string,
  hints: Record<number, string> = nodeHints,
): Promise<ProductError> {
  let detail = "";
  let code: string | undefined;
  try {
    const body = (await response.json()) as { error?: { message?: unknown; code?: unknown } };
    if (typeof body?.error?.message === "string") detail = `: ${body.error.message}`;
    if (typeof body?.error?.code === "string") code = body.error.code;
  } catch {
    // A proxy's HTML error page: the status says enough.
  }
  const hint = hints[response.status] ?? "";
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

  const post = async (path: string, body: unknown, answer: Checker) => {
    const response = await fetch(`${productUrl}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw await failure(response, `POST ${path}`);
    let acknowledged: unknown;
    try {
      acknowledged = await response.json();
    } catch {
      throw new ProductError(`POST ${path} answered something that is not JSON`);
    }
    checkAck(`POST ${path}`, answer, acknowledged);
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
    report: (report) => post("/api/nodes/report", report, ackAnswer),
    events: (events) => post("/api/nodes/events", events, eventsAckAnswer),
  };
}
