import { describe, expect, test } from "vitest";
import { addMonths } from "../../../../core/calendar";
import { apiOf, dataOf, identityOf, sessionOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { demoToken, signIn } from "../../../helpers/customers";
import { cards, order, payWithCard } from "../../../helpers/payments";

const { app } = await makeTestApp();
const api = apiOf(app);
let purchases = 0;

/** An anonymous /instantPay purchase of `days` trial days (or of the plan at its price), paid or not. */
async function anonymousPurchase(days: number, isPaid = true, fullPrice = false) {
  const prepaidToken = `${"9f8e7d".repeat(5)}${++purchases}_${days}_1`;
  const options = await dataOf(api.shop.order.post({ prepaidToken, tariff: 1, period: days, fullPrice }));
  if (isPaid) expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);
  return prepaidToken;
}

/** /api/register with the purchase, as the client sends it after "attach" is confirmed. */
async function attach(email: string, prepaidToken: string, language = "en") {
  const token = await demoToken(app, email);
  return dataOf(
    api.register.post(
      { ...token, period: 30, tariff: 1, prepaidToken },
      { headers: { cookie: `i18next=${language}` } },
    ),
  );
}

describe("binding a prepaid purchase never locks anyone out", () => {
  // An account with access has had its trial, so what it can be given is a purchase at the
  // plan's price (a 1-unit one is refused: tests/bff/payments/orders/trial-every-door.test.ts).
  test("an account that already has access gets the purchased period added to its end", async () => {
    const customer = await signIn(app, "already-active@example.com");
    await payWithCard(app, (await order(app, customer, 1, 30)).invoiceId, cards.success);
    const before = await dataOf(api.profile.post(identityOf(customer), sessionOf(customer)));
    const answer = await attach(customer.email, await anonymousPurchase(7, true, true));
    expect(answer).toMatchObject({ success: true, subscriptionIsActive: true, prepaid: { bound: true } });
    expect(Date.parse(answer.expirationDate ?? "")).toBe(
      addMonths(Date.parse(before.userInfo.expirationDate ?? ""), 1),
    );
  });

  test("an unpaid purchase is explained, in the customer's language, and the sign-in goes on", async () => {
    const answer = await attach("unpaid-buyer@example.com", await anonymousPurchase(3, false), "ru");
    expect(answer).toMatchObject({ success: true, subscriptionIsActive: false, prepaid: { bound: false } });
    expect(answer.prepaid?.reason).toMatch(/не оплачена/);
  });

  test("an unknown purchase is explained", async () => {
    const answer = await attach("unknown-buyer@example.com", "0".repeat(30));
    expect(answer.prepaid).toMatchObject({ bound: false, reason: expect.stringMatching(/not found/) });
  });

  test("binding the same purchase again changes nothing", async () => {
    const token = await anonymousPurchase(5);
    const first = await attach("twice-buyer@example.com", token);
    const second = await attach("twice-buyer@example.com", token);
    expect(second.prepaid).toEqual({ bound: true });
    expect(second.expirationDate).toBe(first.expirationDate);
  });
});
