import type { Database } from "bun:sqlite";
import { ledgerTransactions } from "../../../db/queries/sandbox-ledger";
import { ledgerSbpQrs } from "../../../db/queries/sandbox-ledger-sbp";
import type { Clock } from "../../platform/clock";
import { formatAmount } from "../cloudpayments/notification";
import type { CustomerReceipt } from "../cloudpayments/receipt";
import type { Notify } from "./notifier";
import type { SbpQrs } from "./sbp-qrs";
import type { SbpAccountBehaviour, SbpTokenBook } from "./sbp-tokens";
import type { RecordTransaction } from "./transaction-book";
import { notificationFields } from "./transaction-view";

export type SbpPayRequest = {
  qr: string;
  /** What the payer does in their bank app: pay (the default) or refuse. */
  outcome?: "pay" | "decline";
  /** With autopay asked: how the payer's bank answers later charges ("ok" by default). */
  account?: SbpAccountBehaviour;
};

/** CloudPayments' code for a payment the payer's bank declined, as for a card without funds. */
const declinedByBank = { reasonCode: 5051, reason: "InsufficientFunds" } as const;

/**
 * The payer's bank app: pays a QR (Check, then Pay) or declines it (Fail), as the gateway
 * tells the shop of a card payment, with `PaymentMethod: "Sbp"` and no card. A QR can be
 * paid more than once, as a real one can: its first attempt has the transaction id the QR
 * was made with, each later one an id of its own, and the shop refunds what it did not
 * need. An expired QR is refused with nothing booked or sent.
 */
export function createSbpPayments(
  ledger: Database,
  clock: Clock,
  bank: { record: RecordTransaction; notify: Notify; qrs: SbpQrs; tokens: SbpTokenBook },
) {
  const { record, notify, qrs, tokens } = bank;
  return {
    /** Undefined when there is no such QR. */
    async payQr(request: SbpPayRequest) {
      const qr = qrs.byId(request.qr);
      if (!qr) return undefined;
      if (clock.now() >= qr.expires_at) return { success: false, message: "QR expired" };
      // One statement decides which attempt is the first, even for two at once.
      const isFirst = ledgerSbpQrs.countAttempt(ledger, qr.id) === 1;
      const id = isFirst ? qr.transaction_id : ledgerTransactions.reserveId(ledger);
      const receipt = qr.receipt === null ? null : (JSON.parse(qr.receipt) as CustomerReceipt);
      // The QR is the order: what it books is the QR's invoice, account, amount and currency.
      const details = { id, method: "sbp" as const, receipt };

      if (request.outcome === "decline") {
        const row = record("payment", qr, "Declined", { ...details, ...declinedByBank });
        ledgerSbpQrs.setState(ledger, qr.id, "declined");
        await notify("fail", notificationFields(row, qr.email));
        return { success: false, transactionId: row.id, message: row.reason };
      }

      const checkCode = await notify("check", {
        TransactionId: id,
        Amount: formatAmount(qr.amount),
        Currency: qr.currency,
        InvoiceId: qr.invoice_id,
        AccountId: qr.account_id,
        Email: qr.email ?? undefined,
        PaymentMethod: "Sbp",
        TestMode: 1,
      });
      if (checkCode !== 0) {
        // As for a card: the shop's refusal declines the payment, and Fail tells of it.
        const row = record("payment", qr, "Declined", {
          ...details,
          reasonCode: 5204,
          reason: `Check answered ${checkCode}`,
        });
        ledgerSbpQrs.setState(ledger, qr.id, "declined");
        await notify("fail", notificationFields(row, qr.email));
        return {
          success: false,
          transactionId: row.id,
          message: `The shop refused the payment (code ${checkCode}).`,
          checkCode,
        };
      }
      const token = qr.save_card === 1 ? tokens.create(qr.account_id, request.account ?? "ok", qr.id) : null;
      const row = record("payment", qr, "Completed", { ...details, token });
      ledgerSbpQrs.setState(ledger, qr.id, "paid");
      await notify("pay", notificationFields(row, qr.email));
      return { success: true, transactionId: row.id, message: null };
    },
  };
}
