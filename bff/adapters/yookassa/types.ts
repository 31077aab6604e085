/**
 * The objects of YooKassa's API v3 that the product sends and reads (its reference:
 * yookassa.ru/developers/api). Amounts are decimal strings with two places, "150.00".
 */

export type YooKassaAmount = { value: string; currency: string };

/** One receipt line (54-FZ): `amount` is the price of one unit, as YooKassa takes it. */
export type YooKassaReceiptItem = {
  description: string;
  quantity: string;
  amount: YooKassaAmount;
  /** 1 без НДС, 2 0 %, 3 10 %, 4 20 %, 5 10/110, 6 20/120, 7 5 %, 8 7 %, 9 5/105, 10 7/107, 11 22 %, 12 22/122. */
  vat_code: number;
  payment_subject: "service";
  payment_mode: "full_payment";
};

export type YooKassaReceipt = {
  customer?: { email?: string };
  items: YooKassaReceiptItem[];
  /** 1 ОСН, 2 УСН доходы, 3 УСН доходы − расходы, 4 ЕНВД, 5 ЕСХН, 6 патент. */
  tax_system_code?: number;
};

export type YooKassaCard = {
  first6?: string;
  last4: string;
  /** "MM". */
  expiry_month: string;
  /** "YYYY". */
  expiry_year: string;
  card_type?: string;
};

/** How a payment was (or is to be) paid; `saved`: later payments may name its `id`. */
export type YooKassaPaymentMethod = {
  type: string;
  id: string;
  saved: boolean;
  title?: string;
  card?: YooKassaCard;
};

/** Why a payment or refund was canceled: `reason` is YooKassa's word (insufficient_funds, permission_revoked…). */
export type YooKassaCancellation = { party: string; reason: string };

export type YooKassaConfirmation =
  | { type: "redirect"; confirmation_url: string; return_url?: string }
  | { type: "qr"; confirmation_data: string };

export type YooKassaPaymentStatus = "pending" | "waiting_for_capture" | "succeeded" | "canceled";

export type YooKassaPayment = {
  id: string;
  status: YooKassaPaymentStatus;
  amount: YooKassaAmount;
  description?: string;
  recipient?: { account_id: string; gateway_id: string };
  payment_method?: YooKassaPaymentMethod;
  created_at: string;
  captured_at?: string;
  confirmation?: YooKassaConfirmation;
  test: boolean;
  paid: boolean;
  refundable: boolean;
  refunded_amount?: YooKassaAmount;
  metadata?: Record<string, string>;
  cancellation_details?: YooKassaCancellation;
};

export type YooKassaRefund = {
  id: string;
  payment_id: string;
  status: "pending" | "succeeded" | "canceled";
  created_at: string;
  amount: YooKassaAmount;
  description?: string;
  cancellation_details?: YooKassaCancellation;
};

/** POST /v3/payments: a payment to open (a confirmation) or a saved method to charge (`payment_method_id`). */
export type NewYooKassaPayment = {
  amount: YooKassaAmount;
  capture: true;
  description: string;
  confirmation?: { type: "redirect"; return_url: string } | { type: "qr" };
  payment_method_data?: { type: "bank_card" | "sbp" };
  payment_method_id?: string;
  save_payment_method?: boolean;
  receipt?: YooKassaReceipt;
  metadata?: Record<string, string>;
};

/** POST /v3/refunds. */
export type NewYooKassaRefund = {
  payment_id: string;
  amount: YooKassaAmount;
  receipt?: YooKassaReceipt;
  description?: string;
};

/** An error answer: `code` is invalid_request, invalid_credentials, not_found, too_many_requests… */
export type YooKassaErrorBody = {
  type: "error";
  id: string;
  code: string;
  description?: string;
  parameter?: string;
  /** On a 202 or 429: how long to wait before asking again, in milliseconds. */
  retry_after?: number;
};

/** What YooKassa POSTs to the shop's notification URL: unsigned, so only a look-up confirms it. */
export type YooKassaNotification = {
  type: "notification";
  event: string;
  object: { id: string } & Record<string, unknown>;
};

/** The product's invoice id and account, carried in every payment's `metadata` and read back. */
export const metadataKeys = { invoiceId: "invoice_id", accountId: "account_id" } as const;
