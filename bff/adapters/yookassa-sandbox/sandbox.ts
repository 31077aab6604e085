import type { Database } from "bun:sqlite";
import { yooKassaLedgerMethods, yooKassaLedgerPayments } from "../../../db/queries/yookassa-ledger";
import type { Clock } from "../../platform/clock";
import type { HttpClient } from "../../platform/http-client";
import type { DeliveryPolicy } from "../sandbox/notifier";
import { createSettlements } from "../sandbox/settlements";
import { createSandboxOutage } from "../sandbox-outage";
import { createSandboxApi } from "./api";
import { createConfirmations } from "./confirmations";
import { createFaults } from "./faults";
import { createIdempotence } from "./idempotence";
import { ledgerEntries } from "./ledger-view";
import { createYooKassaNotifier } from "./notifier";
import { paymentObject } from "./objects";
import { createPaymentDesk } from "./payments";
import { createRefundDesk } from "./refunds";

/**
 * `shopId`/`secretKey`: the one pair its Basic auth accepts. `notificationUrl`: where it
 * POSTs its notifications (the shop's /api/payments/yookassa/notification). `pageOrigin`:
 * where its checkout page and the demo bank page (/dev-sbp) are served, the origin of
 * every confirmation URL. `sbpSettlementDelayMs`: how long after its answer an SBP autopay
 * charge is decided.
 */
export type YooKassaSandboxSettings = {
  shopId: string;
  secretKey: string;
  notificationUrl: string;
  pageOrigin: string;
  delivery?: DeliveryPolicy;
  sbpSettlementDelayMs?: number | (() => number);
};

/** Where the sandbox's API lives under the shop's origin (DESIGN §6). */
export const yooKassaSandboxPath = "/api/dev/sandbox/yookassa";

/**
 * The embedded YooKassa sandbox (DESIGN §6): a stand-in for YooKassa's API v3 with its own
 * ledger, the same test cards as the CloudPayments sandbox, a checkout page for card
 * payments, SBP QRs paid on the demo bank page, SBP autopay, refunds, YooKassa's
 * idempotence and its (unsigned) notifications. It knows nothing of our database.
 */
export function createYooKassaSandbox(
  ledger: Database,
  clock: Clock,
  http: HttpClient,
  settings: YooKassaSandboxSettings,
) {
  const origin = settings.pageOrigin.replace(/\/+$/, "");
  const shop = {
    shopId: settings.shopId,
    confirmationUrl: (payment: { id: string; qr_id: string | null }) =>
      payment.qr_id
        ? `${origin}/dev-sbp?qr=${encodeURIComponent(payment.qr_id)}`
        : `${origin}${yooKassaSandboxPath}/checkout?orderId=${encodeURIComponent(payment.id)}`,
  };
  const view = (id: string) => {
    const payment = yooKassaLedgerPayments.byId(ledger, id);
    if (!payment) return undefined;
    const method = payment.payment_method_id
      ? yooKassaLedgerMethods.byId(ledger, payment.payment_method_id)
      : undefined;
    return paymentObject(payment, method, shop);
  };
  const notify = createYooKassaNotifier(http, ledger, clock, settings);
  const settlements = createSettlements(settings.sbpSettlementDelayMs);
  const payments = createPaymentDesk({ ledger, clock, notify, settlements, view });
  payments.resumePending();
  const refunds = createRefundDesk({ ledger, clock, notify });
  const idempotence = createIdempotence(ledger, clock);
  return {
    ledger,
    shopId: settings.shopId,
    secretKey: settings.secretKey,
    api: createSandboxApi({ ledger, idempotence, payments, refunds, paymentView: view }),
    faults: createFaults(),
    /** Down on demand (POST /api/dev/sandbox/outage): its API and its payer's pages answer 503. */
    outage: createSandboxOutage(),
    ...createConfirmations({ ledger, clock, notify, view }),
    /** Resolves once every SBP autopay charge answered pending so far is decided and told. */
    settled: settlements.settled,
    /** The payers' banks decide nothing until the returned function is called (tests, the demo's hold). */
    holdDecisions: settlements.hold,
    entries: (accountId?: string) => ledgerEntries(ledger, accountId),
  };
}

export type YooKassaSandbox = ReturnType<typeof createYooKassaSandbox>;
