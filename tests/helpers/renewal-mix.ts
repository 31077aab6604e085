import type { PaymentMethod, PaymentProvider } from "../../core/payment-methods";
import type { PaymentRow } from "../../db/queries/payments";
import type { SubscriptionRow } from "../../db/queries/subscriptions";
import { apiOf, dataOf, identityOf, sessionOf } from "./api";
import type { makeTestApp } from "./app";
import { type SignedIn, signIn } from "./customers";
import { advanceDays, ledger, order, payWithCard, runBilling } from "./payments";
import { payQr, sbpAutopayCustomer } from "./sbp";
import { yooKassaCardCustomer, yooKassaLedger, yooKassaOrder } from "./yookassa";

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

const otherApprovingCard = "5555 5555 5555 4444";

/** A customer whose renewal charges `method` saved at `provider`. */
export type DueCustomer = {
  provider: PaymentProvider;
  method: PaymentMethod;
  customer: SignedIn;
  accountId: string;
};

/** The four saved methods a renewal can charge (DESIGN §6), in the order customers are made. */
export const savedMethods = [
  ["cloudpayments", "card"],
  ["cloudpayments", "sbp"],
  ["yookassa", "card"],
  ["yookassa", "sbp"],
] as const satisfies readonly (readonly [PaymentProvider, PaymentMethod])[];

/** A customer whose one-day trial was paid with `method` at `provider`, the method saved for renewals. */
async function payingCustomer(
  world: TestApp,
  [provider, method]: (typeof savedMethods)[number],
  email: string,
) {
  const { app, context } = world;
  if (provider === "cloudpayments" && method === "sbp") {
    const { customer, accountId } = await sbpAutopayCustomer(world, email, "ok");
    return { provider, method, customer, accountId };
  }
  if (provider === "yookassa" && method === "card") {
    const { accountId, ...customer } = await yooKassaCardCustomer(app, context, email);
    return { provider, method, customer, accountId };
  }
  const customer = await signIn(app, email, { period: 1 });
  if (provider === "cloudpayments") {
    const options = await order(app, customer, 1, 1);
    // Not YooKassa's test number: each sandbox gives a number's cards the same run of
    // expiries, and the same card's second trial, at the other provider, would be refused.
    if (!(await payWithCard(app, options.invoiceId, otherApprovingCard)).success)
      throw new Error("trial not paid");
    return { provider, method, customer, accountId: options.accountId };
  }
  const { options, started } = await yooKassaOrder(app, context, customer, {
    method: "sbp",
    saveMethod: true,
  });
  if (!("sbp" in started)) throw new Error("a YooKassa SBP order answered no QR");
  const paid = await payQr(world, new URL(started.sbp.qrUrl).searchParams.get("qr") ?? "", "pay", "ok");
  if (!paid.success) throw new Error("the YooKassa SBP trial was not paid");
  return { provider, method, customer, accountId: options.accountId };
}

/**
 * `rounds` customers of each saved method, made in turn (a CloudPayments card, a
 * CloudPayments SBP binding, a YooKassa card, a YooKassa SBP binding, then again), so one
 * pass charging them one at a time meets the providers interleaved; then due, their
 * notices sent more than 24 hours before (DESIGN §13(a)).
 */
export async function dueOnEveryMethod(world: TestApp, rounds: number): Promise<DueCustomer[]> {
  const customers: DueCustomer[] = [];
  for (let round = 0; round < rounds; round++)
    for (const saved of savedMethods)
      customers.push(await payingCustomer(world, saved, `${saved.join("-")}-${round}@example.com`));
  await runBilling(world.app);
  await advanceDays(world.app, 1.5);
  return customers;
}

/** A customer's renewal attempts, oldest first. */
export const renewalsOf = ({ context }: TestApp, accountId: string) =>
  context.database.all<PaymentRow>(
    "SELECT * FROM payments WHERE account_id = ? AND kind = 'renewal' ORDER BY id",
    [accountId],
  );

/** The customer's subscription as it stands. */
export const subscriptionOf = async ({ context }: TestApp, accountId: string) =>
  (await context.database.get<SubscriptionRow>(
    "SELECT * FROM subscriptions WHERE user_id = (SELECT user_id FROM payments WHERE account_id = ? LIMIT 1) ORDER BY id DESC LIMIT 1",
    [accountId],
  )) as SubscriptionRow;

/** What the cabinet says of the customer's access. */
export const accessOf = async ({ app }: TestApp, customer: SignedIn) =>
  (await dataOf(apiOf(app).profile.post(identityOf(customer), sessionOf(customer)))).userInfo;

/** The kinds of mail the customer was sent, oldest first. */
export const mailKindsOf = async ({ app }: TestApp, email: string) =>
  (await dataOf(apiOf(app).dev.mail.get({ query: { to: email } }))).reverse().map((mail) => mail.kind);

/** A renewal charge as a bank's ledger holds it: its provider, our invoice, its id, status and amount in minor units. */
export type BankCharge = {
  provider: PaymentProvider;
  invoiceId: string;
  transactionId: string;
  isPaid: boolean;
  amount: number;
};

/** Every renewal charge in both sandboxes' ledgers, by account. */
export async function renewalChargesAtBanks({ app }: TestApp): Promise<Map<string, BankCharge[]>> {
  const byAccount = new Map<string, BankCharge[]>();
  const add = (accountId: string, charge: BankCharge) =>
    byAccount.set(accountId, [...(byAccount.get(accountId) ?? []), charge]);
  for (const entry of await ledger(app))
    if (entry.kind === "payment" && entry.invoiceId.startsWith("renewal-"))
      add(entry.accountId, {
        provider: "cloudpayments",
        invoiceId: entry.invoiceId,
        transactionId: String(entry.transactionId),
        isPaid: entry.status === "Completed",
        amount: Math.round(entry.amount * 100),
      });
  for (const entry of await yooKassaLedger(app))
    if (entry.isSavedMethodCharge)
      add(entry.metadata.account_id ?? "", {
        provider: "yookassa",
        invoiceId: entry.metadata.invoice_id ?? "",
        transactionId: entry.id,
        isPaid: entry.status === "succeeded",
        amount: Math.round(entry.amount * 100),
      });
  return byAccount;
}
