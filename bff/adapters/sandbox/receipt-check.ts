import { exactMinorUnits } from "../../../core/money";
import { taxationSystems as taxationCodes, vatRates as vatCodes } from "../../platform/fiscal-settings";
import { formatAmount } from "../cloudpayments/notification";
import type { CustomerReceipt } from "../cloudpayments/receipt";

export type ReceiptReading =
  | { isAccepted: true; receipt: CustomerReceipt | null }
  | { isAccepted: false; message: string };

const taxationSystems = new Set<unknown>(taxationCodes);
const vatRates = new Set<unknown>(vatCodes);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Currency units (two decimals at most) to minor units; undefined for anything else. */
function minorUnits(value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return undefined;
  return exactMinorUnits(value);
}

const refused = (message: string): ReceiptReading => ({ isAccepted: false, message });
const money = (minor: number) => formatAmount(minor);

function itemProblem(item: unknown, position: number): string | number {
  const name = `CustomerReceipt.Items[${position}]`;
  if (!isRecord(item)) return `${name} must be an object.`;
  if (typeof item.label !== "string" || item.label.trim() === "" || item.label.length > 128)
    return `${name}.label must name what was sold (1 to 128 characters).`;
  const price = minorUnits(item.price);
  const amount = minorUnits(item.amount);
  const quantity = item.quantity;
  if (price === undefined || amount === undefined)
    return `${name}: price and amount must be sums of money (0 or more, at most two decimals).`;
  if (typeof quantity !== "number" || !Number.isFinite(quantity) || quantity <= 0)
    return `${name}.quantity must be a number above 0.`;
  if (Math.round(price * quantity) !== amount)
    return `${name}.amount ${money(amount)} is not price ${money(price)} × quantity ${quantity}.`;
  if (item.vat !== undefined && item.vat !== null && !vatRates.has(item.vat))
    return `${name}.vat must be null (без НДС) or one of ${vatCodes.join(", ")}.`;
  if (!Number.isInteger(item.method) || !Number.isInteger(item.object))
    return `${name}: method and object must be the whole-number codes of 54-FZ.`;
  return amount;
}

/**
 * Reads the receipt of a charge or refund (`JsonData.CloudPayments.CustomerReceipt`,
 * as an object or as JSON text) and checks it as a fiscal provider would: items that
 * add up, and a card payment (`amounts.electronic`) equal to the money moved. A
 * request without a receipt is taken: the receipt is optional in the gateway's API.
 */
export function readReceipt(jsonData: unknown, amountMinor: number): ReceiptReading {
  let data = jsonData;
  if (data === undefined || data === null) return { isAccepted: true, receipt: null };
  if (typeof data === "string") {
    try {
      data = JSON.parse(data);
    } catch {
      return refused("JsonData is not valid JSON.");
    }
  }
  if (!isRecord(data)) return refused("JsonData must be a JSON object.");
  const cloudPayments = data.CloudPayments;
  if (cloudPayments === undefined) return { isAccepted: true, receipt: null };
  if (!isRecord(cloudPayments)) return refused("JsonData.CloudPayments must be an object.");
  const receipt = cloudPayments.CustomerReceipt;
  if (receipt === undefined) return { isAccepted: true, receipt: null };
  if (!isRecord(receipt)) return refused("CloudPayments.CustomerReceipt must be an object.");
  if (!Array.isArray(receipt.Items) || receipt.Items.length === 0)
    return refused("CustomerReceipt.Items must list at least one item.");
  let itemsTotal = 0;
  for (const [position, item] of receipt.Items.entries()) {
    const checked = itemProblem(item, position);
    if (typeof checked === "string") return refused(checked);
    itemsTotal += checked;
  }
  if (!taxationSystems.has(receipt.taxationSystem))
    return refused("CustomerReceipt.taxationSystem must be 0 to 5.");
  if (receipt.email !== undefined && typeof receipt.email !== "string")
    return refused("CustomerReceipt.email must be text.");
  const amounts = isRecord(receipt.amounts) ? receipt.amounts : {};
  const electronic = minorUnits(amounts.electronic);
  if (electronic === undefined)
    return refused("CustomerReceipt.amounts.electronic must state the card payment (0 or more).");
  const others = [amounts.advancePayment, amounts.credit, amounts.provision].map((value) =>
    value === undefined ? 0 : minorUnits(value),
  );
  if (others.some((value) => value === undefined))
    return refused("CustomerReceipt.amounts must be sums of money (0 or more, at most two decimals).");
  const paidTotal = electronic + others.reduce<number>((sum, value) => sum + (value ?? 0), 0);
  if (itemsTotal !== paidTotal)
    return refused(
      `The receipt's items add up to ${money(itemsTotal)} but its amounts to ${money(paidTotal)}; a fiscal provider refuses such a receipt, so nothing was charged or refunded.`,
    );
  if (electronic !== amountMinor)
    return refused(
      `The receipt's amounts.electronic ${money(electronic)} differs from the Amount ${money(amountMinor)}; a fiscal provider refuses such a receipt, so nothing was charged or refunded.`,
    );
  return { isAccepted: true, receipt: receipt as CustomerReceipt };
}
