import type { PaymentMethod, PaymentProvider } from "../../../../core/payment-methods";
import type { CustomerReceipt } from "../../../adapters/cloudpayments/receipt";

/**
 * The one interface payments run through (DESIGN §6, "Payment methods and providers"):
 * orders, settlement, renewals, refunds and the panel speak only this; each provider's
 * adapter turns it into its own HTTP protocol. Amounts are in minor units (kopecks, tiyn),
 * as the product keeps them; the adapter converts.
 */
export type ProviderClient = {
  readonly name: PaymentProvider;
  /** The methods this provider takes money by, as it is configured. */
  readonly methods: readonly PaymentMethod[];
  /** Charges a saved method for an attempt already committed (its invoice id is its idempotency key). */
  chargeSaved(charge: SavedCharge, receipt: CustomerReceipt): Promise<ChargeOutcome>;
  /** Gives back `amount` of a payment the provider took; the receipt states what goes back. */
  refund(payment: RefundedPayment, amount: number, receipt: CustomerReceipt): Promise<RefundOutcome>;
  /** What the provider knows of one of our invoices: null when it never reached it. */
  find(invoiceId: string): Promise<ChargeOutcome | null>;
  /**
   * Opens a first payment on the provider's side, for a provider whose payer pays on a page
   * of its own (a redirect URL for a card) or in the bank's app (an SBP QR or link).
   * Absent for CloudPayments, whose widget the browser opens from the order's options
   * (orders/orders.ts). The order is one already committed; the invoice id is its key.
   */
  startPayment?(
    order: PaymentToStart,
    options: StartOptions,
    receipt: CustomerReceipt,
  ): Promise<StartedPayment>;
};

/** A first payment to open: our order, as committed (amounts in minor units). */
export type PaymentToStart = {
  invoiceId: string;
  accountId: string;
  amount: number;
  currency: string;
  description: string;
};

/**
 * How the payer pays: by card or SBP, whether later charges may use the same method (the
 * customer ticked it), and the page the provider sends the payer back to afterwards.
 */
export type StartOptions = { method: PaymentMethod; saveMethod: boolean; returnUrl: string };

/**
 * Where the payer goes: the provider's page (`redirect`), or, for SBP, the link a phone
 * opens in the bank's app and a desktop shows as a QR (`qr`). `providerPaymentId` is the
 * provider's id of the payment, kept on our order; `expiresAt` when it stops taking payment.
 */
export type StartedPayment =
  | { kind: "redirect"; providerPaymentId: string; confirmationUrl: string }
  | { kind: "qr"; providerPaymentId: string; qrUrl: string; expiresAt: number };

/** A charge of a saved method: our invoice, what it is for, and the provider's token. */
export type SavedCharge = {
  invoiceId: string;
  accountId: string;
  amount: number;
  currency: string;
  description: string;
  token: string;
};

/**
 * A charge's outcome as the provider states it. `pending`: accepted, its outcome to come by
 * notification (an SBP charge): never counted paid, never charged again.
 */
export type ChargeOutcome =
  | { status: "paid"; transactionId: string }
  | { status: "pending"; transactionId: string | null }
  | { status: "declined"; transactionId: string | null; reasonCode: number | null; reason: string | null };

/** The payment a refund gives money back from: the provider's transaction and how it was paid. */
export type RefundedPayment = { transactionId: string; method: PaymentMethod };

/**
 * A refund the provider took, or refused with its own words. `isSettled` false: accepted,
 * but done only when the provider's Refund notification says so (an SBP payment's refund
 * is a transfer the payer's bank completes later); until then it is in progress.
 * `refundTransactionId`: the refund's own transaction, which that notification names.
 */
export type RefundOutcome =
  | { isRefunded: true; isSettled: boolean; refundTransactionId: string | null }
  | { isRefunded: false; reason: string | null };

/**
 * The provider turned a call away for its rate limit before doing anything with it, so the
 * same call may be sent again once it allows: unlike a timeout or a 5xx, whose outcome is
 * unknown and must be looked up.
 */
export class ProviderBusyError extends Error {
  constructor(
    message: string,
    /** From Retry-After, when the provider said. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
    this.name = "ProviderBusyError";
  }
}
