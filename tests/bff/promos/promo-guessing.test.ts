import { describe, expect, test } from "vitest";
import { createPromo } from "../../../bff/modules/promos/panel-promos";
import { withPeerAddress } from "../../../bff/platform/client-address";
import { apiOf, dataOf, identityOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { asCustomer, type SignedIn, signIn } from "../../helpers/customers";
import { makeOperator } from "../../helpers/operators";

const { app, context, clock } = await makeTestApp();
await makeOperator(context, "promo.maker", "admin");
await createPromo(
  context.database,
  {
    promoCode: "REALCODE25",
    promoType: "DISCOUNT",
    isAvailable: true,
    discount: 0.25,
    expirationDate: "2099-01-01",
  },
  1,
  null,
  context.clock.now(),
);

/** Raw, as each guess comes from a socket address of its own, which the typed client cannot set. */
const tryCode = (customer: SignedIn, promoCode: string, address = "127.0.0.1") =>
  app.handle(withPeerAddress(asCustomer(customer, "/api/shop/applyPromo", { promoCode }), address));

const discountOf = async (customer: SignedIn) =>
  (await dataOf(apiOf(app).shop.getShop.post(identityOf(customer), sessionOf(customer)))).promoDiscount;

describe("promo guessing", () => {
  test("ten wrong codes per customer an hour, then 429 even for a real code", async () => {
    const customer = await signIn(app, "guesser@example.com");
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await tryCode(customer, `GUESS${attempt}`, `192.0.2.${attempt}`)).status).toBe(404);
    }
    const blocked = await tryCode(customer, "REALCODE25", "192.0.2.100");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await discountOf(customer)).toBe(0);
    clock.advance(61 * 60 * 1000);
    expect((await tryCode(customer, "REALCODE25")).status).toBe(200);
  });

  test("parallel wrong codes cannot slip past the limit", async () => {
    const customer = await signIn(app, "parallel-guesser@example.com");
    const statuses = await Promise.all(
      Array.from(
        { length: 25 },
        async (_, attempt) => (await tryCode(customer, `PAR${attempt}`, "192.0.2.200")).status,
      ),
    );
    expect(statuses.filter((status) => status === 404)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
  });

  test("thirty wrong codes per address an hour, over all customers", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) {
      const customer = await signIn(app, `address-guesser-${index}@example.com`);
      for (let attempt = 0; attempt < 8; attempt++) {
        statuses.push((await tryCode(customer, `ADDR${index}X${attempt}`, "198.51.100.77")).status);
      }
    }
    expect(statuses.slice(0, 30).every((status) => status === 404)).toBe(true);
    expect(statuses.slice(30).every((status) => status === 429)).toBe(true);
  });

  test("a right code or one already used does not count as a wrong guess", async () => {
    const customer = await signIn(app, "honest@example.com");
    for (let attempt = 0; attempt < 12; attempt++) {
      expect([200, 409]).toContain((await tryCode(customer, "REALCODE25", "203.0.113.50")).status);
    }
  });

  test("a code given at sign-in counts too; past the limit it is ignored, and sign-in still works", async () => {
    for (let attempt = 0; attempt < 10; attempt++) {
      await signIn(app, "signin-guesser@example.com", { referralCode: `SIGNIN${attempt}` });
    }
    const customer = await signIn(app, "signin-guesser@example.com", { referralCode: "REALCODE25" });
    expect(await discountOf(customer)).toBe(0);
  });
});
