/**
 * CloudPayments' online receipt (54-FZ), as a charge, a refund or the widget's `data`
 * carries it in `JsonData.CloudPayments.CustomerReceipt`. Amounts are in currency
 * units with at most two decimals, as the gateway takes them.
 */
export type ReceiptItem = {
  label: string;
  price: number;
  quantity: number;
  amount: number;
  /** null: "без НДС". */
  vat: number | null;
  /** Признак способа расчёта (4: full payment). */
  method: number;
  /** Признак предмета расчёта (4: a service). */
  object: number;
};

export type CustomerReceipt = {
  Items: ReceiptItem[];
  taxationSystem: number;
  /** Where the fiscal data operator sends the receipt; absent when the buyer is not known yet. */
  email?: string;
  amounts: { electronic: number };
};

export type ReceiptJsonData = { CloudPayments: { CustomerReceipt: CustomerReceipt } };

export const receiptJsonData = (receipt: CustomerReceipt): ReceiptJsonData => ({
  CloudPayments: { CustomerReceipt: receipt },
});
