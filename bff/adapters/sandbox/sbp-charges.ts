import type { Database } from "bun:sqlite";
import { ledgerSbpCharges, type SbpAccountBehaviour } from "../../../db/queries/sandbox-ledger-sbp";
import type { CustomerReceipt } from "../cloudpayments/receipt";
import type { Notify } from "./notifier";
import type { SbpTokenBook } from "./sbp-tokens";
import type { Settlements } from "./settlements";
import type { Booking, RecordTransaction } from "./transaction-book";
import { model, notificationFields } from "./transaction-view";

type Outcome = {
  status: "Completed" | "Declined";
  reasonCode: number | null;
  reason: string | null;
  /** Whether the shop hears of it; a silent bank leaves the shop to look it up. */
  isNotified: boolean;
};

/**
 * What the payer's bank does with a later charge of its autopay binding, as chosen on the
 * bank page. 6001: the binding is gone (the payer revoked it in their bank app; the real
 * gateway also says 6010 or 6011 for it).
 */
const outcomes: Record<SbpAccountBehaviour, Outcome> = {
  ok: { status: "Completed", reasonCode: null, reason: null, isNotified: true },
  declinesLater: { status: "Declined", reasonCode: 5051, reason: "InsufficientFunds", isNotified: true },
  revoked: { status: "Declined", reasonCode: 6001, reason: "SbpBindingRevoked", isNotified: true },
  silent: { status: "Completed", reasonCode: null, reason: null, isNotified: false },
};

/**
 * Charges of an SBP autopay binding through POST /payments/tokens/charge. The payer's bank
 * decides after the gateway answered, so the answer has no final status (Success false,
 * Message "Pending", the Model with Status "Pending") and the ledger books it Pending; the
 * outcome comes later by Pay or Fail (settlements.ts). One call is one transaction, settled
 * once: settling a charge that is no longer Pending changes nothing.
 */
export function createSbpCharges(
  ledger: Database,
  bank: { record: RecordTransaction; notify: Notify; settlements: Settlements; tokens: SbpTokenBook },
) {
  const { record, notify, settlements, tokens } = bank;

  async function settle(transactionId: number, behaviour: SbpAccountBehaviour): Promise<void> {
    const outcome = outcomes[behaviour];
    const row = ledgerSbpCharges.settle(ledger, transactionId, outcome);
    if (!row || !outcome.isNotified) return;
    await notify(row.status === "Completed" ? "pay" : "fail", notificationFields(row, null));
  }

  return {
    /** `answered`: the settlement waits for the call's answer to have been given. */
    charge(
      binding: { token: string; behaviour: SbpAccountBehaviour },
      booking: Booking,
      receipt: CustomerReceipt | null,
      answered: Promise<unknown>,
    ) {
      if (booking.currency !== "RUB")
        return { Success: false, Message: "SBP takes payments in RUB only.", Model: undefined };
      const row = record("payment", booking, "Pending", { method: "sbp", token: binding.token, receipt });
      settlements.schedule(answered, () => settle(row.id, binding.behaviour));
      return { Success: false, Message: "Pending", Model: model(row) };
    },

    /** Charges a stopped bank left Pending are settled once it is open again, as their bank would. */
    resumePending(): void {
      for (const { id, token } of ledgerSbpCharges.pending(ledger)) {
        const binding = token === null ? undefined : tokens.byToken(token);
        settlements.schedule(Promise.resolve(), () => settle(id, binding?.behaviour ?? "ok"));
      }
    },
  };
}

export type SbpCharges = ReturnType<typeof createSbpCharges>;
