/** The fields of a gateway notification (check, pay, fail, refund) that we act on. */
export type Notification = {
  TransactionId: string;
  Amount: string;
  Currency: string;
  InvoiceId: string;
  AccountId: string;
  Status?: string;
  Token?: string;
  CardLastFour?: string;
  ReasonCode?: string;
  Reason?: string;
  PaymentTransactionId?: string;
  OperationType?: string;
};

/** Notifications come form-urlencoded by default, JSON when configured so. */
export function parseNotification(rawBody: string, contentType: string | null): Notification | undefined {
  let fields: Record<string, unknown>;
  try {
    fields = contentType?.includes("application/json")
      ? (JSON.parse(rawBody) as Record<string, unknown>)
      : Object.fromEntries(new URLSearchParams(rawBody));
  } catch {
    return undefined;
  }
  const text = (name: string) => {
    const value = fields[name];
    return value === undefined || value === null ? undefined : String(value);
  };
  const transactionId = text("TransactionId");
  const amount = text("Amount");
  if (!transactionId || amount === undefined) return undefined;
  return {
    TransactionId: transactionId,
    Amount: amount,
    Currency: text("Currency") ?? "",
    InvoiceId: text("InvoiceId") ?? "",
    AccountId: text("AccountId") ?? "",
    Status: text("Status"),
    Token: text("Token"),
    CardLastFour: text("CardLastFour"),
    ReasonCode: text("ReasonCode"),
    Reason: text("Reason"),
    PaymentTransactionId: text("PaymentTransactionId"),
    OperationType: text("OperationType"),
  };
}

/** "150.00" → 15000: money is integer minor units everywhere inside. */
export function toMinorUnits(amount: string): number | undefined {
  if (!/^\d+(\.\d{1,2})?$/.test(amount.trim())) return undefined;
  const [whole = "0", fraction = ""] = amount.trim().split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

export const fromMinorUnits = (minor: number) => (minor / 100).toFixed(2);

/** Lost, stolen and expired cards: never retried (DESIGN §6). */
export const hardDeclineCodes = new Set([5041, 5043, 5054]);
