import type { HttpClient } from "../../platform/http-client";
import { YooKassaBusyError, YooKassaRefusedError, YooKassaUnavailableError } from "./errors";
import type {
  NewYooKassaPayment,
  NewYooKassaRefund,
  YooKassaErrorBody,
  YooKassaPayment,
  YooKassaRefund,
} from "./types";

/** The shop's HTTP Basic pair and the API's base (https://api.yookassa.ru, or the sandbox). */
export type YooKassaSettings = { apiUrl: string; shopId: string; secretKey: string };

/**
 * How one call is tried: `attempts` sends in all, `firstDelayMs` before the second, doubling
 * after; each send waits `timeoutMs` for the whole answer. YooKassa says a 5xx's outcome is
 * unknown and asks for the same request under the same key again, which is what a retry is.
 */
export type YooKassaCallPolicy = { attempts: number; firstDelayMs: number; timeoutMs: number };

/**
 * Three sends over about a second: a blip of YooKassa's is ridden out inside the call,
 * an outage is left to the caller (a renewal stays pending and is looked up later). A
 * real answer comes in well under a second; 15 s of silence is none.
 */
export const defaultCallPolicy: YooKassaCallPolicy = { attempts: 3, firstDelayMs: 300, timeoutMs: 15_000 };

/** A 202's wait ("still processing") is honoured up to this, so a call never hangs on it. */
const longestProcessingWaitMs = 5_000;

type Sent = { status: number; body: unknown; retryAfter: string | null };

function retryAfterMsOf(header: string | null, body: unknown): number | undefined {
  const fromBody = (body as Partial<YooKassaErrorBody> | undefined)?.retry_after;
  if (typeof fromBody === "number" && fromBody >= 0) return fromBody;
  if (!header) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** One send, answered within `timeoutMs` (the in-process loopback ignores a request's signal). */
async function sendOnce(http: HttpClient, request: Request, timeoutMs: number): Promise<Sent> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const answer = (async (): Promise<Sent> => {
    const response = await http.fetch(request);
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, body, retryAfter: response.headers.get("retry-after") };
  })();
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
    // A send given up on may still fail later; nobody waits for it then.
    answer.catch(() => {});
  }
}

/**
 * Our own client of YooKassa's API v3 (DESIGN §6: there is no well-kept SDK): HTTP Basic
 * with the shop id and secret key, JSON bodies, an `Idempotence-Key` on every POST that is
 * sent unchanged with every retry of the call. A 5xx, a 202, a timeout or a dropped
 * connection is tried again (`policy`); a 429 ends the call at once (YooKassaBusyError),
 * since whoever called paces its own calls; any other 4xx is YooKassa's refusal.
 */
export function createYooKassaClient(
  settings: YooKassaSettings,
  http: HttpClient,
  policy: YooKassaCallPolicy = defaultCallPolicy,
) {
  const authorization = `Basic ${Buffer.from(`${settings.shopId}:${settings.secretKey}`).toString("base64")}`;
  const base = settings.apiUrl.replace(/\/+$/, "");

  async function call<Answer>(path: string, body?: unknown, idempotenceKey?: string): Promise<Answer> {
    const headers: Record<string, string> = { authorization, accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (idempotenceKey) headers["idempotence-key"] = idempotenceKey;
    const text = body === undefined ? undefined : JSON.stringify(body);
    let problem = "not sent";
    for (let attempt = 1; attempt <= policy.attempts; attempt++) {
      let sent: Sent;
      try {
        sent = await sendOnce(
          http,
          new Request(`${base}${path}`, {
            method: text === undefined ? "GET" : "POST",
            headers,
            body: text,
            signal: AbortSignal.timeout(policy.timeoutMs),
          }),
          policy.timeoutMs,
        );
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
        if (attempt < policy.attempts) await Bun.sleep(policy.firstDelayMs * 2 ** (attempt - 1));
        continue;
      }
      if (sent.status === 200) return sent.body as Answer;
      if (sent.status === 429) throw new YooKassaBusyError(path, retryAfterMsOf(sent.retryAfter, sent.body));
      if (sent.status === 202 || sent.status >= 500) {
        // 202: accepted and still being worked on; 5xx: unknown. Either way, ask again, same key.
        problem = `HTTP ${sent.status}`;
        const asked = sent.status === 202 ? retryAfterMsOf(sent.retryAfter, sent.body) : undefined;
        const backoff = policy.firstDelayMs * 2 ** (attempt - 1);
        if (attempt < policy.attempts) await Bun.sleep(Math.min(asked ?? backoff, longestProcessingWaitMs));
        continue;
      }
      const error = (sent.body ?? {}) as Partial<YooKassaErrorBody>;
      throw new YooKassaRefusedError(path, sent.status, error.code ?? "unknown", error.description);
    }
    throw new YooKassaUnavailableError(path, problem);
  }

  /** A GET's 404: YooKassa has no such object (never made, or not this shop's). */
  async function found<Answer>(path: string): Promise<Answer | null> {
    try {
      return await call<Answer>(path);
    } catch (error) {
      if (error instanceof YooKassaRefusedError && error.status === 404) return null;
      throw error;
    }
  }

  const idOf = (id: string) => encodeURIComponent(id);

  return {
    shopId: settings.shopId,
    /** POST /v3/payments: opens a payment (confirmation) or charges a saved method (payment_method_id). */
    createPayment: (payment: NewYooKassaPayment, idempotenceKey: string) =>
      call<YooKassaPayment>("/v3/payments", payment, idempotenceKey),
    /** The same POST with a body kept as sent (a retry after a crash sends these exact bytes). */
    resendPayment: (body: unknown, idempotenceKey: string) =>
      call<YooKassaPayment>("/v3/payments", body, idempotenceKey),
    /** GET /v3/payments/{id}; null when YooKassa has no such payment. */
    getPayment: (id: string) => found<YooKassaPayment>(`/v3/payments/${idOf(id)}`),
    /**
     * GET /v3/payments: a page (at most 100) of the payments made from `from` to `to`,
     * newest first, and the cursor of the next page while there is one.
     */
    listPayments: (from: number, to: number, cursor?: string) =>
      call<{ items: YooKassaPayment[]; next_cursor?: string }>(
        `/v3/payments?${new URLSearchParams({
          "created_at.gte": new Date(from).toISOString(),
          "created_at.lte": new Date(to).toISOString(),
          limit: "100",
          ...(cursor ? { cursor } : {}),
        })}`,
      ),
    /** POST /v3/refunds, with the refund's receipt. */
    createRefund: (refund: NewYooKassaRefund, idempotenceKey: string) =>
      call<YooKassaRefund>("/v3/refunds", refund, idempotenceKey),
    /** The same POST with a body kept as sent. */
    resendRefund: (body: unknown, idempotenceKey: string) =>
      call<YooKassaRefund>("/v3/refunds", body, idempotenceKey),
    /** GET /v3/refunds/{id}; null when YooKassa has no such refund. */
    getRefund: (id: string) => found<YooKassaRefund>(`/v3/refunds/${idOf(id)}`),
  };
}

export type YooKassaClient = ReturnType<typeof createYooKassaClient>;
