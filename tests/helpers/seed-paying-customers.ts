import { treaty } from "@elysiajs/eden";
import type { App } from "../../bff/app";
import { dataOf } from "./api";

export type SeedOptions = {
  /**
   * Where the card is paid, as the widget pays: the sandbox bank's instance, when the shop
   * at `origin` charges through another's (CLOUDPAYMENTS_API_URL). Default: `origin`.
   */
  bankOrigin?: string;
  /** Customers being seeded at once (25); more when the bank answers slowly. */
  inFlight?: number;
};

/**
 * Creates `count` customers who paid their first payment through the HTTP API, several at
 * once. Each pays with a card of its own (no expiry named); the trial is once per card and
 * one number has 1,200 expiries, so the approving test numbers alternate (two give 2,400
 * customers; all of `approvingCards` 13,200).
 */
export async function seedPayingCustomers(
  origin: string,
  count: number,
  cards: readonly string[] = ["4242 4242 4242 4242", "5555 5555 5555 4444"],
  prefix = "payer",
  options: SeedOptions = {},
) {
  const bank = treaty<App>(options.bankOrigin ?? origin, { parseDate: false }).api;
  return seedInLanes(count, options.inFlight ?? 25, async (index) => {
    const { email, order } = await registerAndOrder(origin, `${prefix}${index}@example.com`, {});
    const paid = await dataOf(
      bank.dev.sandbox.pay.post({
        invoiceId: order.invoiceId,
        cardNumber: cards[index % cards.length] ?? "",
      }),
    );
    if (!paid.success) throw new Error(`first payment of ${email} failed`);
    return order.accountId;
  });
}

/**
 * Creates `count` customers whose first payment was an SBP QR paid with autopay allowed
 * (DESIGN §6), through the HTTP API as the cabinet and the payer's bank app make it: the
 * order's QR is made at the bank (`bankOrigin`), paid on its bank page, and its Pay carries
 * the binding the bank saved, which becomes the subscription's saved method. The bank
 * treats the binding's later charges as `account` says ("ok": answered Pending, then paid).
 */
export async function seedSbpAutopayCustomers(
  origin: string,
  count: number,
  prefix = "sbp-payer",
  options: SeedOptions & { account?: "ok" | "declinesLater" | "revoked" | "silent" } = {},
) {
  const bank = treaty<App>(options.bankOrigin ?? origin, { parseDate: false }).api;
  return seedInLanes(count, options.inFlight ?? 25, async (index) => {
    const { email, order } = await registerAndOrder(origin, `${prefix}${index}@example.com`, {
      method: "sbp",
      saveMethod: true,
    });
    const qr = order.sbp ? new URL(order.sbp.qrUrl).searchParams.get("qr") : null;
    if (!qr) throw new Error(`the SBP order of ${email} answered no QR`);
    const paid = await dataOf(
      bank.dev.sandbox.sbp.pay.post({ qr, outcome: "pay", account: options.account ?? "ok" }),
    );
    if (!paid.success) throw new Error(`SBP first payment of ${email} failed`);
    return order.accountId;
  });
}

/** A demo sign-in and registration (a 1-day trial of a month's plan), then its first order. */
async function registerAndOrder(
  origin: string,
  email: string,
  payBy: { method?: "card" | "sbp"; saveMethod?: boolean },
) {
  const shop = treaty<App>(origin, { parseDate: false }).api;
  const token = await dataOf(shop.dev.idp.token.post({ email }));
  const register = await shop.register.post({
    ...token,
    email,
    providerId: "google.com",
    period: 1,
    tariff: 1,
  });
  if (register.error)
    throw new Error(`/api/register: ${register.status} ${JSON.stringify(register.error.value)}`);
  const cookie = register.response.headers.getSetCookie()[0]?.split(";")[0];
  const order = await dataOf(
    shop.shop.order.post(
      { email, uid: token.uid, tariff: 1, period: 1, ...payBy },
      { headers: cookie ? { cookie } : {} },
    ),
  );
  return { email, order };
}

/** Runs `seedOne` for indices 0..count-1, `inFlight` at once; each lane takes the next index as soon as its last is done. */
async function seedInLanes(count: number, inFlight: number, seedOne: (index: number) => Promise<string>) {
  const accounts: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const index = next++;
      accounts[index] = await seedOne(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, lane));
  return accounts;
}
