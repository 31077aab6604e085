import type { CustomerReceipt } from "../../bff/adapters/cloudpayments/receipt";
import type { createApp } from "../../bff/app";
import { postJson, request } from "./app";
import { asCustomer, type SignedIn, signIn } from "./customers";

type App = ReturnType<typeof createApp>;

export type WidgetOptions = {
  publicId: string;
  amount: number;
  currency: string;
  invoiceId: string;
  accountId: string;
  description: string;
  data: { CloudPayments: { CustomerReceipt: CustomerReceipt } };
};

export async function order(app: App, customer: SignedIn, tariff = 1, period = 30): Promise<WidgetOptions> {
  const response = await app.handle(asCustomer(customer, "/api/shop/order", { tariff, period }));
  if (response.status !== 200) throw new Error(`order: ${response.status} ${await response.text()}`);
  return (await response.json()) as WidgetOptions;
}

export async function payWithCard(app: App, invoiceId: string, cardNumber: string, amount?: number) {
  const response = await app.handle(postJson("/api/dev/sandbox/pay", { invoiceId, cardNumber, amount }));
  return (await response.json()) as {
    success: boolean;
    transactionId?: number;
    message: string | null;
    checkCode?: number;
  };
}

/** Pays as the widget does, with every field `/api/dev/sandbox/pay` takes (expiry, data). */
export async function payInSandbox(
  app: App,
  body: { invoiceId: string; cardNumber: string; expiry?: string; amount?: number; data?: unknown },
) {
  const response = await app.handle(postJson("/api/dev/sandbox/pay", body));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** One send of a notification about a ledger transaction, and the shop's answer (null: none came). */
export type LedgerDelivery = {
  kind: string;
  attempt: number;
  status: number | null;
  code: number | null;
  error: string | null;
  dateTime: string;
};

export type LedgerEntry = {
  transactionId: string;
  invoiceId: string;
  accountId: string;
  amount: number;
  currency: string;
  status: string;
  kind: string;
  dateTime: string;
  receipt: CustomerReceipt | null;
  notifications: LedgerDelivery[];
};

export async function ledger(app: App, accountId: string): Promise<LedgerEntry[]> {
  return (await (
    await app.handle(request(`/api/dev/sandbox/ledger?accountId=${encodeURIComponent(accountId)}`))
  ).json()) as LedgerEntry[];
}

export async function advanceDays(app: App, days: number) {
  const response = await app.handle(postJson("/api/dev/clock", { advanceDays: days }));
  if (response.status !== 200) throw new Error(`clock: ${response.status}`);
}

export async function runBilling(app: App) {
  return (await (await app.handle(postJson("/api/dev/billing/run", {}))).json()) as Record<string, number>;
}

export const cards = {
  success: "4242 4242 4242 4242",
  declined: "4012 8888 8888 1881",
  firstThenDeclined: "4111 1111 1111 1111",
  expiredLater: "4000 0000 0000 0069",
};

/**
 * Time passing as the renewal scheduler sees it: a pass now, then a pass after each day
 * (or the rest of it), as the server's own scheduler would run them at least. Renewals
 * need a notice sent 24 hours before (DESIGN §13(a)), which only a pass before the due
 * date can send; a bare `advanceDays` + `runBilling` over a due date finds none and moves
 * the charge. Answers the passes' counts added up.
 */
export async function passDays(app: App, days: number) {
  const total: Record<string, number> = {};
  const add = (counts: Record<string, number>) => {
    for (const [key, value] of Object.entries(counts)) total[key] = (total[key] ?? 0) + value;
  };
  add(await runBilling(app));
  let left = days;
  while (left > 1e-9) {
    const step = Math.min(1, left);
    await advanceDays(app, step);
    add(await runBilling(app));
    left -= step;
  }
  return total;
}

/** `count` customers whose 1-day trial was paid with a card that renews; returns their account ids. */
export async function payingCustomers(app: App, count: number, prefix: string): Promise<string[]> {
  const accounts: string[] = [];
  for (let start = 0; start < count; start += 25) {
    const batch = Array.from({ length: Math.min(25, count - start) }, async (_, offset) => {
      const customer = await signIn(app, `${prefix}${start + offset}@example.com`);
      const options = await order(app, customer, 1, 1);
      if (!(await payWithCard(app, options.invoiceId, cards.success)).success)
        throw new Error("trial not paid");
      return options.accountId;
    });
    accounts.push(...(await Promise.all(batch)));
  }
  return accounts;
}
