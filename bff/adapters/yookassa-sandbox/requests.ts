/**
 * What the sandbox takes in a POST, checked as YooKassa checks it: a refusal names the
 * parameter at fault, as its `invalid_request` errors do, and nothing is made.
 */

export type Problem = { parameter: string; description: string };

export type PaymentRequest = {
  amount: number;
  currency: string;
  description: string;
  metadata: Record<string, string> | null;
  receipt: unknown;
  methodType: "bank_card" | "sbp" | null;
  savedMethodId: string | null;
  isSaveAsked: boolean;
  confirmation: { type: "redirect"; returnUrl: string } | { type: "qr" } | null;
};

export type RefundRequest = {
  paymentId: string;
  amount: number;
  currency: string;
  description: string | null;
  receipt: unknown;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const problem = (parameter: string, description: string): Problem => ({ parameter, description });

/** Problems are the only answers here with a `parameter`. */
export const isProblem = (value: object): value is Problem => "parameter" in value;

/** "150.00", "150.5", "150" (or the same as a number) → minor units; undefined for anything else. */
export function minorUnitsOf(value: unknown): number | undefined {
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !/^\d{1,12}(\.\d{1,2})?$/.test(text)) return undefined;
  const [whole = "0", fraction = ""] = text.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

function amountOf(value: unknown, parameter: string): { amount: number; currency: string } | Problem {
  if (!isRecord(value)) return problem(parameter, "Amount is required: {value, currency}.");
  const amount = minorUnitsOf(value.value);
  if (amount === undefined || amount <= 0)
    return problem(`${parameter}.value`, "The amount must be above 0, with at most two decimals.");
  // The sandbox's shop takes roubles, as a YooKassa shop does unless asked for more.
  if (value.currency !== "RUB") return problem(`${parameter}.currency`, "This shop takes payments in RUB.");
  return { amount, currency: value.currency };
}

/**
 * A receipt (54-FZ) as YooKassa checks it: a customer to send it to, lines that each say
 * what was sold with a VAT code, and lines that add up to the money moved.
 */
function receiptProblem(receipt: unknown, amount: number): Problem | undefined {
  if (receipt === undefined) return undefined;
  if (!isRecord(receipt)) return problem("receipt", "The receipt must be an object.");
  const customer = isRecord(receipt.customer) ? receipt.customer : {};
  if (typeof customer.email !== "string" && typeof customer.phone !== "string")
    return problem("receipt.customer", "The receipt needs the customer's email or phone.");
  if (!Array.isArray(receipt.items) || receipt.items.length === 0)
    return problem("receipt.items", "The receipt must list at least one item.");
  let total = 0;
  for (const [index, item] of receipt.items.entries()) {
    const at = `receipt.items[${index}]`;
    if (!isRecord(item)) return problem(at, "Each item must be an object.");
    if (
      typeof item.description !== "string" ||
      item.description.trim() === "" ||
      item.description.length > 128
    )
      return problem(`${at}.description`, "Each item must say what was sold (1 to 128 characters).");
    const quantity = Number(item.quantity);
    if (!Number.isFinite(quantity) || quantity <= 0)
      return problem(`${at}.quantity`, "Quantity must be above 0.");
    const price = isRecord(item.amount) ? minorUnitsOf(item.amount.value) : undefined;
    if (price === undefined) return problem(`${at}.amount`, "Each item needs its price: {value, currency}.");
    if (!Number.isInteger(item.vat_code) || Number(item.vat_code) < 1 || Number(item.vat_code) > 12)
      return problem(`${at}.vat_code`, "vat_code must be 1 to 12.");
    total += Math.round(price * quantity);
  }
  if (total !== amount)
    return problem(
      "receipt",
      `The receipt's items add up to ${(total / 100).toFixed(2)}, not the ${(amount / 100).toFixed(2)} being moved.`,
    );
  return undefined;
}

function metadataOf(value: unknown): { value: Record<string, string> | null } | Problem {
  if (value === undefined || value === null) return { value: null };
  if (!isRecord(value) || Object.keys(value).length > 16)
    return problem("metadata", "metadata must be an object of at most 16 keys.");
  const metadata: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (
      key.length > 32 ||
      (typeof entry !== "string" && typeof entry !== "number") ||
      String(entry).length > 512
    )
      return problem(`metadata.${key}`, "metadata keys are at most 32 characters, values at most 512.");
    metadata[key] = String(entry);
  }
  return { value: metadata };
}

function confirmationOf(value: unknown, methodType: string | null): PaymentRequest["confirmation"] | Problem {
  if (value === undefined) return null;
  if (!isRecord(value)) return problem("confirmation", "confirmation must be an object.");
  if (value.type === "qr") {
    if (methodType !== "sbp")
      return problem("confirmation.type", 'A qr confirmation is for payment_method_data {type: "sbp"}.');
    return { type: "qr" };
  }
  if (value.type === "redirect") {
    if (typeof value.return_url !== "string" || !URL.canParse(value.return_url))
      return problem(
        "confirmation.return_url",
        "A redirect confirmation needs the return_url to send the payer back to.",
      );
    return { type: "redirect", returnUrl: value.return_url };
  }
  return problem("confirmation.type", "The sandbox confirms by redirect or qr.");
}

/** POST /v3/payments. */
export function readPaymentRequest(body: unknown): PaymentRequest | Problem {
  if (!isRecord(body)) return problem("body", "The request body must be a JSON object.");
  const money = amountOf(body.amount, "amount");
  if (isProblem(money)) return money;
  if (body.capture !== true)
    return problem("capture", "The sandbox takes payments with capture: true (no two-stage payments).");
  const description = body.description ?? "";
  if (typeof description !== "string" || description.length > 128)
    return problem("description", "description is at most 128 characters.");
  const methodData = isRecord(body.payment_method_data) ? body.payment_method_data : undefined;
  const methodType = methodData?.type ?? null;
  if (methodType !== null && methodType !== "bank_card" && methodType !== "sbp")
    return problem("payment_method_data.type", "The sandbox takes bank_card and sbp.");
  const savedMethodId = typeof body.payment_method_id === "string" ? body.payment_method_id : null;
  const confirmation = confirmationOf(body.confirmation, methodType);
  if (confirmation && isProblem(confirmation)) return confirmation;
  if (savedMethodId !== null && (confirmation !== null || methodType !== null))
    return problem(
      "payment_method_id",
      "A saved method is charged without payment_method_data or confirmation.",
    );
  if (savedMethodId === null && confirmation === null)
    return problem(
      "confirmation",
      "A payment needs a confirmation for the payer, or a saved payment_method_id.",
    );
  const metadata = metadataOf(body.metadata);
  if (isProblem(metadata)) return metadata;
  const receiptIssue = receiptProblem(body.receipt, money.amount);
  if (receiptIssue) return receiptIssue;
  return {
    ...money,
    description,
    metadata: metadata.value,
    receipt: body.receipt ?? null,
    methodType,
    savedMethodId,
    isSaveAsked: body.save_payment_method === true,
    confirmation,
  };
}

/** POST /v3/refunds. */
export function readRefundRequest(body: unknown): RefundRequest | Problem {
  if (!isRecord(body)) return problem("body", "The request body must be a JSON object.");
  if (typeof body.payment_id !== "string" || body.payment_id === "")
    return problem("payment_id", "payment_id names the payment to refund.");
  const money = amountOf(body.amount, "amount");
  if (isProblem(money)) return money;
  const receiptIssue = receiptProblem(body.receipt, money.amount);
  if (receiptIssue) return receiptIssue;
  const description = typeof body.description === "string" ? body.description.slice(0, 250) : null;
  return { paymentId: body.payment_id, ...money, description, receipt: body.receipt ?? null };
}
