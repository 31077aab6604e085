import type { Database } from "bun:sqlite";
import { type LedgerOrderRow, ledgerOrders } from "../../../db/queries/sandbox-ledger";
import type { Clock } from "../../platform/clock";
import { formatAmount } from "../cloudpayments/notification";
import { type CardBook, describeCard } from "./card-book";
import { cardOutcome, normalizeCard } from "./cards";
import type { DeliveryLog } from "./delivery-log";
import type { Notify } from "./notifier";
import { readReceipt } from "./receipt-check";
import { invalidAmountMessage, isStorableAmount, type RecordTransaction } from "./transaction-book";
import { notificationFields } from "./transaction-view";

/** An order as the shop tells the sandbox of it: amount in minor units, `data` as the widget gets it. */
export type SandboxOrder = Omit<LedgerOrderRow, "data"> & { data?: unknown };

const parseStored = (json: string | null): unknown => (json === null ? undefined : JSON.parse(json));

/** The widget's side of the sandbox: orders it is opened for, and paying them with a card. */
export function createWidgetPayments(
  ledger: Database,
  clock: Clock,
  bank: { record: RecordTransaction; notify: Notify; cards: CardBook; deliveries: DeliveryLog },
) {
  const { record, notify, cards, deliveries } = bank;
  /** Books a transaction of this widget payment, with the Check that let it go ahead (or refused it). */
  const book = (...args: Parameters<RecordTransaction>) => {
    const row = record(...args);
    deliveries.linkCheck(row.invoice_id, row.id);
    return row;
  };
  return {
    /** The order the widget is opened for (what the widget would send the gateway, `data` included). */
    registerOrder(order: SandboxOrder): void {
      ledgerOrders.register(
        ledger,
        order,
        order.data === undefined ? null : JSON.stringify(order.data),
        clock.now(),
      );
    },

    /**
     * What the widget does on "Pay": Check, then charge the card, then Pay or Fail. The
     * card is the one named by number and expiry, or one of its own without an expiry;
     * `data` is what the widget was given (the registered order's when absent).
     */
    async payWithCard(request: {
      invoiceId: string;
      cardNumber: string;
      expiry?: string;
      amount?: number;
      data?: unknown;
    }) {
      const order = ledgerOrders.byInvoice(ledger, request.invoiceId);
      if (!order) return { success: false, message: "The sandbox has no order with this invoice id." };
      if (request.amount !== undefined && !isStorableAmount(request.amount))
        return { success: false, message: invalidAmountMessage };
      const card = cards.identify(normalizeCard(request.cardNumber), request.expiry);
      const described = describeCard(card.number, card.expiry);
      const attempt = { ...order, amount: request.amount ?? order.amount };
      const reading = readReceipt(request.data ?? parseStored(order.data), attempt.amount);
      const receipt = reading.isAccepted ? reading.receipt : null;
      const checkCode = await notify("check", {
        TransactionId: 0,
        Amount: formatAmount(attempt.amount),
        Currency: attempt.currency,
        InvoiceId: attempt.invoice_id,
        AccountId: attempt.account_id,
        Email: order.email ?? undefined,
        CardFirstSix: described.firstSix ?? undefined,
        CardLastFour: described.lastFour ?? undefined,
        CardExpDate: described.expiry ?? undefined,
        TestMode: 1,
      });
      if (checkCode !== 0) {
        const row = book("payment", attempt, "Declined", {
          card: described,
          reasonCode: 5204,
          reason: `Check answered ${checkCode}`,
          receipt,
        });
        // The real gateway declines the payment and sends Fail for it, like any decline:
        // without it the shop never learns of a transaction the bank's ledger holds.
        await notify("fail", notificationFields(row, order.email));
        return {
          success: false,
          transactionId: row.id,
          message: `The shop refused the payment (code ${checkCode}).`,
          checkCode,
        };
      }
      // Checked after the shop's Check, which is what decides on a changed amount.
      if (!reading.isAccepted) return { success: false, message: reading.message };
      const outcome = cardOutcome(card.number, true);
      if (!outcome.isApproved) {
        const row = book("payment", attempt, "Declined", {
          card: described,
          reasonCode: outcome.reasonCode,
          reason: outcome.reason,
          receipt,
        });
        await notify("fail", notificationFields(row, order.email));
        return {
          success: false,
          transactionId: row.id,
          message: outcome.reason,
          reasonCode: outcome.reasonCode,
        };
      }
      const token = cards.tokenFor(card, attempt.account_id);
      const row = book("payment", attempt, "Completed", { token, card: described, receipt });
      await notify("pay", notificationFields(row, order.email));
      return { success: true, transactionId: row.id, message: null };
    },
  };
}
