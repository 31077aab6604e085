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
  const bankOrigin = options.bankOrigin ?? origin;
  const inFlight = options.inFlight ?? 25;
  const shop = treaty<App>(origin, { parseDate: false }).api;
  const bank = treaty<App>(bankOrigin, { parseDate: false }).api;
  const seedOne = async (index: number) => {
    const email = `${prefix}${index}@example.com`;
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
        { email, uid: token.uid, tariff: 1, period: 1 },
        { headers: cookie ? { cookie } : {} },
      ),
    );
    const paid = await dataOf(
      bank.dev.sandbox.pay.post({
        invoiceId: order.invoiceId,
        cardNumber: cards[index % cards.length] ?? "",
      }),
    );
    if (!paid.success) throw new Error(`first payment of ${email} failed`);
    return order.accountId;
  };
  // Each lane takes the next customer as soon as its last one has paid.
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
