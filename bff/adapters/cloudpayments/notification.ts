import { toCurrencyUnits, toMinorUnits } from "../../../core/money";
import { isJsonBody } from "./signature";

/** The fields of a gateway notification (check, pay, fail, refund) that we act on. */
export type Notification = {
  TransactionId: string;
  Amount: string;
  Currency: string;
  InvoiceId: string;
  AccountId: string;
  Status?: string;
  Token?: string;
  /** The card as the gateway describes it: with the expiry ("MM/YY"), what identifies it. */
  CardFirstSix?: string;
  CardLastFour?: string;
  CardExpDate?: string;
  ReasonCode?: string;
  Reason?: string;
  PaymentTransactionId?: string;
  OperationType?: string;
  /** The e-mail the payer gave the widget, if any. */
  Email?: string;
  /** "Sbp" for a payment by SBP (no card fields then); a card's may be absent. */
  PaymentMethod?: string;
};

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Notifications come form-urlencoded by default, JSON when configured so. Anything that
 * is not a set of fields (invalid UTF-8, JSON null, an array, a number) is not one.
 */
export function parseNotification(raw: Uint8Array, contentType: string | null): Notification | undefined {
  let fields: Record<string, unknown>;
  try {
    const text = utf8.decode(raw);
    const parsed: unknown = isJsonBody(contentType)
      ? JSON.parse(text)
      : Object.fromEntries(new URLSearchParams(text));
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
    fields = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  // Only plain values count: an object or array where a field should be is not that field.
  const text = (name: string) => {
    const value = Object.hasOwn(fields, name) ? fields[name] : undefined;
    return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : undefined;
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
    CardFirstSix: text("CardFirstSix"),
    CardLastFour: text("CardLastFour"),
    CardExpDate: text("CardExpDate"),
    ReasonCode: text("ReasonCode"),
    Reason: text("Reason"),
    PaymentTransactionId: text("PaymentTransactionId"),
    OperationType: text("OperationType"),
    Email: text("Email"),
    PaymentMethod: text("PaymentMethod"),
  };
}

/**
 * The gateway's "150.00" → 15000: money is integer minor units everywhere inside. Only
 * plain decimals of at most two places are money; the rest (1e3, "0x10", "1.005") is not.
 */
export function parseAmount(amount: string): number | undefined {
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(amount.trim())) return undefined;
  return toMinorUnits(Number(amount.trim()));
}

/** 15000 → the gateway's "150.00". */
export const formatAmount = (minor: number) => toCurrencyUnits(minor).toFixed(2);

/** Lost, stolen and expired cards: never retried (DESIGN §6). */
export const hardDeclineCodes = new Set([5041, 5043, 5054]);

/**
 * The saved method is gone: the payer revoked or closed the SBP autopay binding in their
 * bank's app (6001; the gateway also says 6010 or 6011 for it). Its token can never be
 * charged again, so it is forgotten rather than retried (saved-method-revoked.ts).
 */
export const savedMethodGoneCodes = new Set([6001, 6010, 6011]);
