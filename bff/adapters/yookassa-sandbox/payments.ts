import type { Database } from "bun:sqlite";
import {
  type YooKassaLedgerPaymentRow,
  yooKassaLedgerMethods,
  yooKassaLedgerPayments,
} from "../../../db/queries/yookassa-ledger";
import type { Clock } from "../../platform/clock";
import type { Settlements } from "../sandbox/settlements";
import { yooKassaCardOutcome } from "./cards";
import { newPaymentId, newQrId } from "./ids";
import type { NotifyShop } from "./notifier";
import type { PaymentRequest, Problem } from "./requests";

/** How long a payment waits for its payer: a card page an hour, an SBP QR half an hour (as the shop's own QRs). */
export const confirmationMinutes = { redirect: 60, qr: 30 } as const;

/** What a request made, and what the bank does once it has answered it (its notifications). */
export type Made = { id: string; afterwards: () => Promise<void> };

export type PaymentBank = {
  ledger: Database;
  clock: Clock;
  notify: NotifyShop;
  settlements: Settlements;
  /** The payment as the API shows it now. */
  view: (id: string) => { id: string } | undefined;
};

/** How the payer's bank answers an SBP autopay charge, as chosen on the bank page. */
const sbpOutcomes = {
  ok: { isApproved: true, isNotified: true },
  declinesLater: { isApproved: false, reason: "insufficient_funds", isNotified: true },
  revoked: { isApproved: false, reason: "permission_revoked", isNotified: true },
  silent: { isApproved: true, isNotified: false },
} as const;

/** The event that tells of a decided payment. */
export const eventOf = (status: string) =>
  status === "succeeded" ? "payment.succeeded" : "payment.canceled";

/**
 * POST /v3/payments: a payment that waits for its payer (a redirect to the checkout page,
 * or an SBP QR for the bank page), or a charge of a saved method. A saved card is decided
 * at once, by the test card's rule for later charges; a saved SBP account answers pending
 * and is decided after the answer (`answered`), as the payer's bank chose.
 */
export function createPaymentDesk(bank: PaymentBank) {
  const { ledger, clock, notify, settlements } = bank;
  const tell = (id: string) => async () => {
    const payment = yooKassaLedgerPayments.byId(ledger, id);
    const object = bank.view(id);
    if (payment && object && payment.status !== "pending") await notify(eventOf(payment.status), object);
  };

  function settleSbpCharge(id: string, behaviour: keyof typeof sbpOutcomes): () => Promise<void> {
    return async () => {
      const outcome = sbpOutcomes[behaviour];
      const payment = yooKassaLedgerPayments.byId(ledger, id);
      if (!payment) return;
      const isDecided = outcome.isApproved
        ? yooKassaLedgerPayments.succeed(ledger, id, payment.payment_method_id ?? "", clock.now())
        : yooKassaLedgerPayments.cancel(ledger, id, "payment_network", outcome.reason, null);
      if (isDecided && outcome.isNotified) await tell(id)();
    };
  }

  function chargeSaved(
    request: PaymentRequest,
    row: YooKassaLedgerPaymentRow,
    answered: Promise<unknown>,
  ): Made | Problem {
    const method = yooKassaLedgerMethods.byId(ledger, request.savedMethodId ?? "");
    if (method?.saved !== 1)
      return { parameter: "payment_method_id", description: "No saved payment method has this id." };
    const charged = { ...row, payment_method_id: method.id, method_type: method.type };
    if (method.type === "sbp") {
      yooKassaLedgerPayments.insert(ledger, charged);
      settlements.schedule(answered, settleSbpCharge(row.id, method.behaviour ?? "ok"));
      return { id: row.id, afterwards: async () => {} };
    }
    const outcome = yooKassaCardOutcome(method.card_number ?? "", false);
    yooKassaLedgerPayments.insert(
      ledger,
      outcome.isApproved
        ? { ...charged, status: "succeeded", captured_at: clock.now() }
        : {
            ...charged,
            status: "canceled",
            cancellation_party: outcome.party,
            cancellation_reason: outcome.reason,
          },
    );
    return { id: row.id, afterwards: tell(row.id) };
  }

  return {
    create(request: PaymentRequest, answered: Promise<unknown>): Made | Problem {
      const now = clock.now();
      const row: Omit<YooKassaLedgerPaymentRow, "confirm_attempts" | "refunded_amount"> = {
        id: newPaymentId(),
        status: "pending",
        amount: request.amount,
        currency: request.currency,
        description: request.description,
        metadata: request.metadata ? JSON.stringify(request.metadata) : null,
        receipt: request.receipt === null ? null : JSON.stringify(request.receipt),
        method_type: request.methodType,
        payment_method_id: null,
        save_requested: request.isSaveAsked ? 1 : 0,
        confirmation_type: request.confirmation?.type ?? null,
        return_url: request.confirmation?.type === "redirect" ? request.confirmation.returnUrl : null,
        qr_id: null,
        confirm_by: null,
        cancellation_party: null,
        cancellation_reason: null,
        captured_at: null,
        created_at: now,
      };
      if (request.savedMethodId !== null)
        return chargeSaved(request, { ...row, confirm_attempts: 0, refunded_amount: 0 }, answered);
      // An SBP payment is paid in the payer's bank app, from its QR; a card's on the checkout page.
      const isSbp = request.methodType === "sbp";
      const minutes = isSbp ? confirmationMinutes.qr : confirmationMinutes.redirect;
      yooKassaLedgerPayments.insert(ledger, {
        ...row,
        qr_id: isSbp ? newQrId() : null,
        confirm_by: now + minutes * 60_000,
      });
      return { id: row.id, afterwards: async () => {} };
    },

    /** SBP autopay charges a stopped bank left pending are decided once it is open again. */
    resumePending(): void {
      for (const payment of yooKassaLedgerPayments.pendingSavedCharges(ledger)) {
        const method = yooKassaLedgerMethods.byId(ledger, payment.payment_method_id ?? "");
        if (method?.type === "sbp")
          settlements.schedule(Promise.resolve(), settleSbpCharge(payment.id, method.behaviour ?? "ok"));
      }
    },
  };
}
