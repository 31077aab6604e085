import type { Database } from "bun:sqlite";
import { company } from "../../../core/company";
import {
  type YooKassaLedgerPaymentRow,
  yooKassaLedgerMethods,
  yooKassaLedgerPayments,
} from "../../../db/queries/yookassa-ledger";
import type { Clock } from "../../platform/clock";
import { enteredCard, yooKassaCardOutcome } from "./cards";
import type { NotifyShop } from "./notifier";
import { eventOf } from "./payments";

export type SbpAccount = "ok" | "declinesLater" | "revoked" | "silent";

type ConfirmationBank = {
  ledger: Database;
  clock: Clock;
  notify: NotifyShop;
  view: (id: string) => { id: string } | undefined;
};

/** What the payer's confirmation came to, for the checkout page, the bank page and tests. */
export type Confirmed = {
  success: boolean;
  /** The payment's status after it: succeeded, canceled, or pending when nothing was done. */
  status: string;
  message: string | null;
  returnUrl: string | null;
};

/**
 * The payer's side of a payment that waits for them: the checkout page's card form (a
 * redirect confirmation) and the bank app paying an SBP QR (the demo bank page, /dev-sbp).
 * A payment is confirmed once: succeeded or canceled, and YooKassa tells the shop. One left
 * past its confirmation time is canceled (expired_on_confirmation) when the payer comes.
 */
export function createConfirmations(bank: ConfirmationBank) {
  const { ledger, clock, notify } = bank;
  const tell = async (id: string) => {
    const payment = yooKassaLedgerPayments.byId(ledger, id);
    const object = bank.view(id);
    if (payment && object) await notify(eventOf(payment.status), object);
  };
  const result = (payment: YooKassaLedgerPaymentRow, message: string | null): Confirmed => {
    const now = yooKassaLedgerPayments.byId(ledger, payment.id) ?? payment;
    return { success: now.status === "succeeded", status: now.status, message, returnUrl: now.return_url };
  };

  /** Undefined: it may go ahead; otherwise why not (and an expired one is canceled now). */
  async function refusal(payment: YooKassaLedgerPaymentRow): Promise<Confirmed | undefined> {
    if (payment.status !== "pending") return result(payment, `The payment is already ${payment.status}.`);
    if (payment.confirm_by !== null && clock.now() > payment.confirm_by) {
      if (yooKassaLedgerPayments.cancel(ledger, payment.id, "yoo_money", "expired_on_confirmation", null))
        await tell(payment.id);
      return result(payment, "The time to pay has run out.");
    }
    yooKassaLedgerPayments.countAttempt(ledger, payment.id);
    return undefined;
  }

  return {
    /** The checkout page's payment; undefined when there is no such card payment. */
    async payByCard(request: { paymentId: string; cardNumber: string; expiry?: string }) {
      const payment = yooKassaLedgerPayments.byId(ledger, request.paymentId);
      if (payment?.confirmation_type !== "redirect" || payment.method_type === "sbp") return undefined;
      const card = enteredCard(ledger, request.cardNumber, request.expiry);
      if (!card) return { ...result(payment, "The expiry must be MM/YY."), success: false };
      const refused = await refusal(payment);
      if (refused) return refused;
      // The method is the payment's own: a saved card is named by the payment that saved it.
      yooKassaLedgerMethods.insert(ledger, {
        id: payment.id,
        type: "bank_card",
        card_number: card.number,
        expiry_month: card.month,
        expiry_year: card.year,
        saved: 0,
        behaviour: null,
        created_at: clock.now(),
      });
      const outcome = yooKassaCardOutcome(card.number, true);
      if (outcome.isApproved) {
        yooKassaLedgerPayments.succeed(ledger, payment.id, payment.id, clock.now());
        if (payment.save_requested === 1) yooKassaLedgerMethods.save(ledger, payment.id);
      } else yooKassaLedgerPayments.cancel(ledger, payment.id, outcome.party, outcome.reason, payment.id);
      await tell(payment.id);
      return result(payment, outcome.isApproved ? null : outcome.reason);
    },

    /** What the checkout page shows of a payment; undefined when there is none to pay by card. */
    describeCheckout(paymentId: string) {
      const payment = yooKassaLedgerPayments.byId(ledger, paymentId);
      if (payment?.confirmation_type !== "redirect" || payment.method_type === "sbp") return undefined;
      return {
        merchant: company.productName,
        amount: (payment.amount / 100).toFixed(2),
        currency: payment.currency,
        description: payment.description,
        status: payment.status,
        returnUrl: payment.return_url,
      };
    },

    /** An SBP payment's QR as the bank page shows it (the CloudPayments sandbox's shape). */
    describeQr(qrId: string) {
      const payment = yooKassaLedgerPayments.byQr(ledger, qrId);
      if (!payment) return undefined;
      const expiresAt = payment.confirm_by ?? payment.created_at;
      const states = { pending: "created", succeeded: "paid" } as const;
      return {
        qr: qrId,
        merchant: company.productName,
        amount: payment.amount / 100,
        currency: payment.currency,
        description: payment.description,
        expiresAt: new Date(expiresAt).toISOString(),
        isExpired: clock.now() >= expiresAt,
        asksAutopay: payment.save_requested === 1,
        // The payer's phone goes with CloudPayments' QRs only (SBP_PAYER_PHONE).
        payerPhone: null as string | null,
        state: payment.status in states ? states[payment.status as keyof typeof states] : "declined",
        attempts: payment.confirm_attempts,
      };
    },

    /**
     * The payer's bank app pays (or declines) an SBP QR; `account` says how the saved account
     * answers later charges. Undefined when no payment has this QR. The answer is the bank
     * page's (`transactionId`: the YooKassa payment it paid or declined).
     */
    async payQr(request: { qr: string; outcome?: "pay" | "decline"; account?: SbpAccount }) {
      const payment = yooKassaLedgerPayments.byQr(ledger, request.qr);
      if (!payment) return undefined;
      const refused = await refusal(payment);
      if (refused)
        return refused.status === "canceled" && payment.status === "pending"
          ? { success: false, message: "QR expired" }
          : { success: false, transactionId: payment.id, message: refused.message };
      if (request.outcome === "decline") {
        yooKassaLedgerPayments.cancel(ledger, payment.id, "payment_network", "general_decline", null);
        await tell(payment.id);
        return { success: false, transactionId: payment.id, message: "general_decline" };
      }
      yooKassaLedgerMethods.insert(ledger, {
        id: payment.id,
        type: "sbp",
        card_number: null,
        expiry_month: null,
        expiry_year: null,
        saved: payment.save_requested,
        behaviour: request.account ?? "ok",
        created_at: clock.now(),
      });
      yooKassaLedgerPayments.succeed(ledger, payment.id, payment.id, clock.now());
      await tell(payment.id);
      return { success: true, transactionId: payment.id, message: null };
    },
  };
}
