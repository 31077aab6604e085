import type { CustomerReceipt } from "../cloudpayments/receipt";
import type { YooKassaReceipt } from "./types";

/**
 * The product's receipt settings are CloudKassir's codes (platform/fiscal-settings.ts);
 * YooKassa numbers VAT rates its own way. null is "без НДС", not 0 %.
 */
const vatCodes: ReadonlyMap<number | null, number> = new Map<number | null, number>([
  [null, 1],
  [0, 2],
  [10, 3],
  [20, 4],
  [110, 5],
  [120, 6],
  [5, 7],
  [7, 8],
  [105, 9],
  [107, 10],
  [22, 11],
  [122, 12],
]);

/** CloudKassir's 0 (ОСН) … 5 (патент) are YooKassa's tax_system_code 1 … 6. */
const taxSystemCode = (taxationSystem: number) => taxationSystem + 1;

const money = (units: number) => units.toFixed(2);

/**
 * The payment's (or refund's) 54-FZ receipt as YooKassa takes it (DESIGN §6): the same lines
 * the product writes for CloudPayments, each a service paid in full, at its unit price.
 */
export function yooKassaReceipt(receipt: CustomerReceipt, currency: string): YooKassaReceipt {
  return {
    ...(receipt.email ? { customer: { email: receipt.email } } : {}),
    items: receipt.Items.map((item) => ({
      description: item.label.slice(0, 128),
      quantity: item.quantity.toFixed(2),
      amount: { value: money(item.price), currency },
      vat_code: vatCodes.get(item.vat) ?? 1,
      payment_subject: "service",
      payment_mode: "full_payment",
    })),
    tax_system_code: taxSystemCode(receipt.taxationSystem),
  };
}
