import type { HttpClient } from "../../platform/http-client";
import { signBody } from "../cloudpayments/signature";
import type { DeliveryAttempt, DeliveryLog } from "./delivery-log";

export type NotificationKind = "check" | "pay" | "fail" | "refund";
export type Notify = (
  kind: NotificationKind,
  fields: Record<string, string | number | undefined>,
) => Promise<number>;

export type DeliveryPolicy = {
  /** Sends in all, the first included. */
  attempts: number;
  /** The wait after the first send that failed; it doubles after each further one. */
  firstDelayMs: number;
  /** How long a send waits for the shop's whole answer before it counts as none. */
  timeoutMs: number;
};

/**
 * The real gateway delivers at least once, again and again for up to 100 sends (DESIGN
 * §6). The sandbox's caller (the widget's Pay, a charge or refund call) waits for the
 * delivery, so it sends 5 times at most, 0.2, 0.4, 0.8 and 1.6 s apart: enough for a shop
 * that failed a moment (a 5xx, a dropped connection), and an end that tests and callers
 * reach. A shop busy with a burst of payments may take seconds to answer; only one silent
 * for 30 s counts as no answer.
 */
export const defaultDeliveryPolicy: DeliveryPolicy = { attempts: 5, firstDelayMs: 200, timeoutMs: 30_000 };

type Answer = Pick<DeliveryAttempt, "status" | "code" | "error">;

/**
 * Whether the gateway sends the notification again. No answer or a 5xx is a failed
 * delivery. Any other status, and a `code`, is the shop's answer: a 4xx refusal (a wrong
 * signature, say) would get the same answer again, and Check's non-zero codes decide the
 * payment. The exception is a Refund answered non-zero, which the shop says when the
 * refund came before its payment: the gateway delivers it again (DESIGN §12).
 */
function isDeliveredAgain(kind: NotificationKind, answer: Answer): boolean {
  if (answer.status === null || answer.status >= 500) return true;
  if (answer.status < 200 || answer.status >= 300) return false;
  // A 2xx without a code is no answer the gateway can read.
  if (answer.code === null) return true;
  return kind === "refund" && answer.code !== 0;
}

/** The shop's answer to one send, read within `timeoutMs` (the loopback ignores a request's signal). */
async function send(http: HttpClient, request: Request, timeoutMs: number): Promise<Answer> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const answer = (async (): Promise<Answer> => {
    const response = await http.fetch(request);
    const body = (await response.json().catch(() => undefined)) as { code?: unknown } | undefined;
    return { status: response.status, code: typeof body?.code === "number" ? body.code : null, error: null };
  })();
  try {
    return await Promise.race([answer, timeout]);
  } catch (error) {
    return { status: null, code: null, error: String(error).slice(0, 300) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Posts the gateway's signed, form-urlencoded notifications to the shop, delivering again
 * as `isDeliveredAgain` says, each send kept in the ledger (delivery-log.ts). Answers the
 * shop's last code, or 13 when it never answered with one.
 */
export function createNotifier(
  http: HttpClient,
  settings: { apiSecret: string; notificationUrl: string; delivery?: DeliveryPolicy },
  log: DeliveryLog,
): Notify {
  const policy = settings.delivery ?? defaultDeliveryPolicy;
  return async (kind, fields) => {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(fields))
      if (value !== undefined) form.set(name, String(value));
    const body = form.toString();
    const headers = {
      "content-type": "application/x-www-form-urlencoded",
      "content-hmac": signBody(settings.apiSecret, body),
      "x-content-hmac": signBody(settings.apiSecret, decodeURIComponent(body.replace(/\+/g, " "))),
    };
    const transactionId = Number(fields.TransactionId) || null;
    const invoiceId = String(fields.InvoiceId ?? "");
    let answer: Answer = { status: null, code: null, error: null };
    for (let attempt = 1; attempt <= policy.attempts; attempt++) {
      if (attempt > 1) await Bun.sleep(policy.firstDelayMs * 2 ** (attempt - 2));
      const request = new Request(`${settings.notificationUrl}/${kind}`, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(policy.timeoutMs),
      });
      answer = await send(http, request, policy.timeoutMs);
      log.record({ kind, transactionId, invoiceId, attempt, ...answer });
      if (!isDeliveredAgain(kind, answer)) break;
    }
    const isAnswered = answer.status !== null && answer.status >= 200 && answer.status < 300;
    return isAnswered ? (answer.code ?? 13) : 13;
  };
}
