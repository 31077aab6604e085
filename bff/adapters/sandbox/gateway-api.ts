import type { Database } from "bun:sqlite";
import { toMinorUnits } from "../../../core/money";
import { ledgerTransactions } from "../../../db/queries/sandbox-ledger";
import { type CardBook, describeCard } from "./card-book";
import { cardOutcome } from "./cards";
import type { DeliveryLog } from "./delivery-log";
import type { Notify } from "./notifier";
import { readReceipt } from "./receipt-check";
import type { SbpCharges } from "./sbp-charges";
import type { SbpRefunds } from "./sbp-refunds";
import type { SbpTokenBook } from "./sbp-tokens";
import { invalidAmountMessage, isStorableAmount, type RecordTransaction } from "./transaction-book";
import { ledgerEntry, methodOf, model, notificationFields } from "./transaction-view";
import type { SandboxOrder } from "./widget-payments";

/** The merchant's side of the sandbox: the gateway's server API (token charges, refunds, look-ups). */
export function createGatewayApi(
  ledger: Database,
  bank: {
    record: RecordTransaction;
    notify: Notify;
    cards: CardBook;
    deliveries: DeliveryLog;
    registerOrder: (order: SandboxOrder) => void;
    sbpTokens: SbpTokenBook;
    sbpCharges: SbpCharges;
    sbpRefunds: SbpRefunds;
  },
) {
  const { record, notify, cards, deliveries, sbpTokens, sbpCharges, sbpRefunds } = bank;
  /** What a token names: a saved card, an SBP autopay binding, or nothing the bank knows. */
  const savedMethod = (token: string) => {
    const card = cards.byToken(token);
    if (card) return { kind: "card" as const, card };
    const binding = sbpTokens.byToken(token);
    return binding ? { kind: "sbp" as const, binding } : undefined;
  };
  return {
    /**
     * POST /orders/register, the sandbox's own call: the order a shop is about to open
     * the widget for, when its pages load this sandbox's widget from another instance.
     */
    registerApiOrder(request: {
      InvoiceId: string;
      Amount: number;
      Currency: string;
      AccountId: string;
      Description: string;
      Email?: string;
      JsonData?: unknown;
    }) {
      const amount = toMinorUnits(request.Amount);
      if (!isStorableAmount(amount)) return { Success: false, Message: invalidAmountMessage };
      bank.registerOrder({
        invoice_id: request.InvoiceId,
        amount,
        currency: request.Currency,
        account_id: request.AccountId,
        description: request.Description,
        email: request.Email ?? null,
        // Read at payment time like any JsonData, as an object or as JSON text.
        data: request.JsonData,
      });
      return { Success: true, Message: null };
    },

    /**
     * POST /payments/tokens/charge: charges a saved card, or an SBP autopay binding, whose
     * answer is Pending (sbp-charges.ts); its settlement waits for `answered`, the moment
     * the call was answered. Like the real gateway, it does not dedupe by invoice.
     */
    async chargeToken(
      request: {
        Amount: number;
        Currency: string;
        AccountId: string;
        Token: string;
        InvoiceId: string;
        JsonData?: unknown;
      },
      answered: Promise<unknown> = Promise.resolve(),
    ) {
      const saved = savedMethod(request.Token);
      if (!saved) return { Success: false, Message: "Token not found", Model: undefined };
      const booking = {
        invoice_id: request.InvoiceId,
        account_id: request.AccountId,
        amount: toMinorUnits(request.Amount),
        currency: request.Currency,
      };
      if (!isStorableAmount(booking.amount))
        return { Success: false, Message: invalidAmountMessage, Model: undefined };
      const reading = readReceipt(request.JsonData, booking.amount);
      if (!reading.isAccepted) return { Success: false, Message: reading.message, Model: undefined };
      if (saved.kind === "sbp") return sbpCharges.charge(saved.binding, booking, reading.receipt, answered);
      const outcome = cardOutcome(saved.card.card_number, false);
      const details = {
        token: request.Token,
        card: describeCard(saved.card.card_number, saved.card.exp_date),
        receipt: reading.receipt,
      };
      const row = outcome.isApproved
        ? record("payment", booking, "Completed", details)
        : record("payment", booking, "Declined", {
            ...details,
            reasonCode: outcome.reasonCode,
            reason: outcome.reason,
          });
      await notify(row.status === "Completed" ? "pay" : "fail", notificationFields(row, null));
      return {
        Success: row.status === "Completed",
        Message: row.status === "Completed" ? null : row.reason,
        Model: model(row),
      };
    },

    /**
     * POST /payments/refund, with the refund's receipt in JsonData. A card's refund is done
     * (and notified) before the answer; an SBP payment's is accepted by the answer and done,
     * with its Refund notification, after it (sbp-refunds.ts).
     */
    async refund(
      request: { TransactionId: number; Amount: number; JsonData?: unknown },
      answered: Promise<unknown> = Promise.resolve(),
    ) {
      const original = ledgerTransactions.payment(ledger, request.TransactionId);
      if (original?.status !== "Completed")
        return { Success: false, Message: "Transaction not found or not completed", Model: undefined };
      const refunded = ledgerTransactions.refundedOf(ledger, original.id);
      const amount = toMinorUnits(request.Amount);
      if (!isStorableAmount(amount))
        return { Success: false, Message: invalidAmountMessage, Model: undefined };
      if (amount <= 0 || refunded + amount > original.amount)
        return { Success: false, Message: "Refund amount exceeds the payment", Model: undefined };
      const reading = readReceipt(request.JsonData, amount);
      if (!reading.isAccepted) return { Success: false, Message: reading.message, Model: undefined };
      // Money goes back the way it came: an SBP payment's refund is an SBP transfer.
      const method = methodOf(original);
      const row = record("refund", { ...original, amount }, method === "sbp" ? "Pending" : "Completed", {
        refundOf: original.id,
        method,
        card: {
          firstSix: original.card_first_six,
          lastFour: original.card_last_four,
          expiry: original.card_exp_date,
        },
        receipt: reading.receipt,
      });
      if (method === "sbp") {
        sbpRefunds.completeLater({ id: row.id, paymentId: original.id }, answered);
        return { Success: true, Message: null, Model: model(row) };
      }
      await notify("refund", {
        ...notificationFields(row, null),
        PaymentTransactionId: original.id,
        TransactionId: row.id,
      });
      return { Success: true, Message: null, Model: model(row) };
    },

    /** POST /v2/payments/find (and the older /payments/find): the latest transaction for an invoice. */
    find(invoiceId: string) {
      const row = ledgerTransactions.latestPaymentOf(ledger, invoiceId);
      return row
        ? { Success: true, Message: null, Model: model(row) }
        : { Success: false, Message: "Not found", Model: undefined };
    },

    /** POST /payments/list: transactions of one day (UTC). */
    list(date: string) {
      const start = Date.parse(`${date}T00:00:00Z`);
      const rows = ledgerTransactions.between(ledger, start, start + 86_400_000);
      return { Success: true, Message: null, Model: rows.map(model) };
    },

    /**
     * Everything the bank did for an account, for tests and the demo (GET /api/dev/sandbox/ledger),
     * each transaction with every send of its notifications and the shop's answer.
     */
    entries(accountId?: string) {
      const rows = accountId
        ? ledgerTransactions.ofAccount(ledger, accountId)
        : ledgerTransactions.all(ledger);
      return rows.map((row) => ({ ...ledgerEntry(row), notifications: deliveries.of(row.id) }));
    },
  };
}
