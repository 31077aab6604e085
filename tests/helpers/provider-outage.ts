import { createYooKassaClient, type YooKassaCallPolicy } from "../../bff/adapters/yookassa/client";
import type { SandboxFault } from "../../bff/adapters/yookassa-sandbox/faults";
import type { App } from "../../bff/app";
import type { AppContext } from "../../bff/context";
import { yooKassaBase } from "./yookassa";

/**
 * A payment provider going down in the middle of a renewal pass, in-process: it answers its
 * first `answeredBefore` charges of saved methods, then every later charge meets a fault
 * until `recover()`. Which fault is the test's choice per charge (`faultFor`, by the
 * customer's account and the order in which charges met the outage).
 */

/**
 * CloudPayments' ways of failing a call: no connection (nothing reached the bank), a proxy's
 * 502 (nothing reached it either), or a timeout after the bank took the charge (it charged,
 * and its answer never came back).
 */
export type CloudPaymentsFault = "noConnection" | "badGateway" | "timeoutAfterCharge";

export function cloudPaymentsOutage(
  context: AppContext,
  answeredBefore: number,
  faultFor: (accountId: string) => CloudPaymentsFault,
) {
  const { gateway } = context.payments;
  const { chargeToken, find } = gateway;
  const met: { invoiceId: string; accountId: string; fault: CloudPaymentsFault }[] = [];
  let answered = 0;
  let isDown = false;
  gateway.chargeToken = async (charge, receipt) => {
    if (!isDown) {
      const answer = await chargeToken(charge, receipt);
      if (++answered >= answeredBefore) isDown = true;
      return answer;
    }
    const fault = faultFor(charge.AccountId);
    met.push({ invoiceId: charge.InvoiceId, accountId: charge.AccountId, fault });
    if (fault === "noConnection") throw new TypeError("fetch failed: connect ECONNREFUSED 10.0.0.1:443");
    if (fault === "badGateway") throw new Error("gateway /payments/tokens/charge answered HTTP 502");
    await chargeToken(charge, receipt);
    throw new DOMException("The operation timed out.", "TimeoutError");
  };
  // Its look-ups fail as well while it is down.
  gateway.find = async (invoiceId) => {
    if (isDown) throw new Error("gateway /v2/payments/find answered HTTP 503");
    return find(invoiceId);
  };
  return {
    /** The charges that met the outage, in the order they met it. */
    met,
    recover() {
      isDown = false;
      gateway.chargeToken = chargeToken;
      gateway.find = find;
    },
  };
}

/** YooKassa's faults as its sandbox arms them (faults.ts), the kind and whether the work is done. */
export type YooKassaFault = Pick<SandboxFault, "kind" | "isWorkDone">;

/**
 * Each call tried three times with short pauses, so the outage costs the test little time;
 * a send waits a second, which an in-process answer never needs even on a busy machine.
 */
const quickPolicy: YooKassaCallPolicy = { attempts: 3, firstDelayMs: 10, timeoutMs: 1_000 };

/** A timeout's hold: longer than a send waits. */
const timeoutHoldMs = 1_100;

/** One POST /v3/payments as it went on the wire. */
export type YooKassaSend = { invoiceId: string; key: string | null; body: string };

/**
 * YooKassa (its embedded sandbox) going down: the shop's client is replaced by one sending
 * through the app in-process that records every POST /v3/payments (its Idempotence-Key and
 * body) and, once the outage began, arms the sandbox's own fault for each charge that
 * meets it, once for every send the client makes of it. GETs are left working, so the
 * notifications of charges made before the outage are still checked and applied.
 */
export function yooKassaOutage(
  { app, context }: { app: App; context: AppContext },
  answeredBefore: number,
  faultFor: (accountId: string) => YooKassaFault,
) {
  const shop = context.payments.yookassa;
  const sandbox = shop?.sandbox;
  if (!shop || !sandbox) throw new Error("these tests need the embedded YooKassa sandbox");
  const sends: YooKassaSend[] = [];
  const met: { invoiceId: string; accountId: string; fault: YooKassaFault }[] = [];
  // By invoice: a charge whose answer came after the client gave up on it is counted once.
  const answered = new Set<string>();
  let isDown = false;
  const http = {
    async fetch(request: Request) {
      const isPayment = request.method === "POST" && new URL(request.url).pathname.endsWith("/v3/payments");
      const body = isPayment ? await request.clone().text() : "";
      const parsed = isPayment
        ? (JSON.parse(body) as { payment_method_id?: string; metadata?: Record<string, string> })
        : {};
      const invoiceId = parsed.metadata?.invoice_id ?? "";
      const accountId = parsed.metadata?.account_id ?? "";
      const isCharge = parsed.payment_method_id !== undefined;
      if (isCharge) {
        sends.push({ invoiceId, key: request.headers.get("idempotence-key"), body });
        if (isDown && !met.some((charge) => charge.invoiceId === invoiceId)) {
          const fault = faultFor(accountId);
          met.push({ invoiceId, accountId, fault });
          sandbox.faults.arm({ ...fault, holdMs: timeoutHoldMs, method: "POST" }, quickPolicy.attempts);
        }
      }
      const response = await app.handle(request);
      if (isCharge && !isDown && response.status === 200 && answered.add(invoiceId).size >= answeredBefore)
        isDown = true;
      return response;
    },
    attachLoopback() {},
  };
  shop.client = createYooKassaClient(
    {
      apiUrl: yooKassaBase,
      shopId: context.config.yooKassaShopId,
      secretKey: context.config.yooKassaSecretKey,
    },
    http,
    quickPolicy,
  );
  return {
    met,
    /** Every charge POST as sent, the outage's and the look-ups' after it included. */
    sends,
    recover() {
      isDown = false;
      sandbox.faults.clear();
    },
  };
}
