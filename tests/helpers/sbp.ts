import type { Language } from "../../core/languages";
import { apiOf, dataOf, identityOf, sessionOf } from "./api";
import type { makeTestApp } from "./app";
import { type SignedIn, signIn } from "./customers";
import { ledger, notifyAsGateway } from "./payments";

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

/** How the payer's bank treats later charges of an autopay binding (the bank page's choice). */
export type SbpAccount = "ok" | "declinesLater" | "revoked" | "silent";

/** A customer's first order, paid by SBP: the widget's order with its QR. */
export async function sbpOrder({ app }: TestApp, customer: SignedIn, saveMethod = false, period = 30) {
  const answer = await dataOf(
    apiOf(app).shop.order.post(
      { ...identityOf(customer), tariff: 1, period, method: "sbp", saveMethod },
      sessionOf(customer),
    ),
  );
  if (!answer.sbp) throw new Error("an SBP order answered no QR");
  const qr = new URL(answer.sbp.qrUrl).searchParams.get("qr") ?? "";
  return { ...answer, sbp: answer.sbp, qr };
}

/** The payer's bank app paying (or declining) the QR. */
export const payQr = (
  { app }: TestApp,
  qr: string,
  outcome: "pay" | "decline" = "pay",
  account: SbpAccount = "ok",
) => dataOf(apiOf(app).dev.sandbox.sbp.pay.post({ qr, outcome, account }));

/**
 * A customer whose trial (`trialDays`, 1 unless said) was paid by SBP with autopay allowed:
 * the binding is the subscription's saved method, and the payer's bank treats its later
 * charges as `account` says. Registered in `language` (its mails are written in it).
 */
export async function sbpAutopayCustomer(
  world: TestApp,
  email: string,
  account: SbpAccount,
  options: { language?: Language; trialDays?: number } = {},
) {
  const trialDays = options.trialDays ?? 1;
  const customer = await signIn(world.app, email, {
    period: trialDays,
    headers: { "accept-language": options.language ?? "en" },
  });
  const order = await sbpOrder(world, customer, true, trialDays);
  const paid = await payQr(world, order.qr, "pay", account);
  if (!paid.success) throw new Error(`the SBP trial of ${email} was not paid`);
  const userId = Number(order.accountId.replace("customer-", ""));
  return { customer, order, userId, accountId: order.accountId };
}

/** The bank's transactions of an account's renewal charges, oldest first. */
export async function renewalCharges({ app }: TestApp, accountId: string) {
  return (await ledger(app, accountId)).filter(
    (entry) => entry.kind === "payment" && entry.invoiceId.startsWith("renewal-"),
  );
}

/**
 * A Pay or Fail of a charge as the gateway sends it for SBP (no card, `PaymentMethod: Sbp`),
 * sent again by a test: a redelivery, or a code the sandbox's bank never says.
 */
export function sbpNotification(
  world: TestApp,
  kind: "pay" | "fail",
  charge: { transactionId: string; invoiceId: string; accountId: string; amount: number },
  reasonCode = 0,
) {
  return notifyAsGateway(world.app, world.context.config.cloudPaymentsApiSecret, kind, {
    TransactionId: charge.transactionId,
    Amount: charge.amount.toFixed(2),
    Currency: "RUB",
    InvoiceId: charge.invoiceId,
    AccountId: charge.accountId,
    Status: kind === "pay" ? "Completed" : "Declined",
    PaymentMethod: "Sbp",
    OperationType: "Payment",
    ReasonCode: reasonCode,
    Reason: kind === "pay" ? "Approved" : "SbpBindingClosed",
  });
}

/** The sandbox bank of a test app (every test app has one). */
export function sandboxOf({ context }: TestApp) {
  const sandbox = context.payments.sandbox;
  if (!sandbox) throw new Error("these tests need the embedded sandbox bank");
  return sandbox;
}
