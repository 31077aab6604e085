import { describe, expect, test } from "vitest";
import { payerPhoneOf } from "../../../../core/payer-phone";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { signIn } from "../../../helpers/customers";

// Some CloudPayments terminal categories take an SBP QR only with the payer's phone
// (SBP_PAYER_PHONE=required): the order must then name one, +7 and 10 digits, and the
// gateway's QR request carries it (`Phone`), as the sandbox bank records.

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

const requiringPhone = () => makeTestApp({ SBP_PAYER_PHONE: "required" });

/** The SBP order of a customer signed up in `language`, with whatever `payerPhone` the test sends. */
async function sbpOrder({ app }: TestApp, email: string, payerPhone?: string, language = "en") {
  const customer = await signIn(app, email, { headers: { cookie: `i18next=${language}` } });
  return apiOf(app).shop.order.post(
    { ...identityOf(customer), tariff: 1, period: 1, method: "sbp", ...(payerPhone ? { payerPhone } : {}) },
    sessionOf(customer),
  );
}

/** The phone the sandbox bank holds for the QR of an order's link. */
async function phoneAtBank({ app }: TestApp, qrUrl: string) {
  const qr = new URL(qrUrl).searchParams.get("qr") ?? "";
  return (await dataOf(apiOf(app).dev.sandbox.sbp.qr.get({ query: { qr } }))).payerPhone;
}

const firstPayments = (world: TestApp) =>
  world.context.database.all<{ invoice_id: string }>("SELECT invoice_id FROM payments");

describe("the payer's phone the SBP rule reads", () => {
  test.each([
    ["+79123456789", "+79123456789"],
    ["+7 (912) 345-67-89", "+79123456789"],
    ["8 912 345 67 89", "+79123456789"],
    ["+7 912 345-67-8", undefined],
    ["+7 912 345-67-890", undefined],
    ["+1 212 555 0123", undefined],
    ["79123456789", undefined],
    ["+7 912 ABC-67-89", undefined],
    ["", undefined],
  ])("%j is %j", (typed, expected) => {
    expect(payerPhoneOf(typed)).toBe(expected);
  });
});

describe("SBP_PAYER_PHONE=required", () => {
  test("an SBP order without the phone is refused with the reason in the customer's language, before any order is made", async () => {
    const world = await requiringPhone();
    // Customers who pay in roubles: signed up in Russian, English or Chinese (Kazakh means tenge).
    const refusals = await Promise.all(
      (["en", "ru", "zh"] as const).map(async (language) =>
        refusalOf(sbpOrder(world, `no-phone-${language}@example.com`, undefined, language)),
      ),
    );
    for (const refusal of refusals)
      expect(refusal).toMatchObject({ status: 400, code: "payer_phone_required" });
    const [en, ru, zh] = refusals.map((refusal) => refusal.message);
    expect(en).toContain("+7 and 10 digits");
    expect(ru).toContain("+7 и 10 цифр");
    expect(zh).toContain("+7 加 10 位数字");
    expect(await firstPayments(world)).toEqual([]);
  });

  test("a tenge buyer asking for SBP is told SBP is unavailable, not asked for a phone", async () => {
    const world = await requiringPhone();
    const refusal = await refusalOf(sbpOrder(world, "tenge-sbp@example.com", undefined, "kk"));
    expect(refusal).toMatchObject({ status: 409, code: "payment_method_unavailable" });
    expect(refusal.message).toContain("Картамен төлеңіз");
  });

  test("a phone that is not +7 and 10 digits is refused the same way", async () => {
    const world = await requiringPhone();
    for (const [index, phone] of ["+7 912 345", "+1 212 555 0123", "phone"].entries())
      expect(await refusalOf(sbpOrder(world, `bad-phone-${index}@example.com`, phone))).toMatchObject({
        status: 400,
        code: "payer_phone_required",
      });
  });

  test("with a valid phone the order answers its QR, and the gateway's QR request carried the phone", async () => {
    const world = await requiringPhone();
    const order = await dataOf(sbpOrder(world, "phone-ok@example.com", "8 (912) 345-67-89"));
    if (!order.sbp) throw new Error("no QR");
    expect(await phoneAtBank(world, order.sbp.qrUrl)).toBe("+79123456789");
  });

  test("an anonymous SBP purchase needs the phone too", async () => {
    const world = await requiringPhone();
    const api = apiOf(world.app);
    const body = { prepaidToken: "prepaid-phone-token-0001", tariff: 1, period: 1, method: "sbp" } as const;
    expect(await refusalOf(api.shop.order.post(body))).toMatchObject({ code: "payer_phone_required" });
    const order = await dataOf(api.shop.order.post({ ...body, payerPhone: "+79001112233" }));
    expect(await phoneAtBank(world, order.sbp?.qrUrl ?? "")).toBe("+79001112233");
  });

  test("a card order needs no phone", async () => {
    const world = await requiringPhone();
    const customer = await signIn(world.app, "card-no-phone@example.com");
    const order = await dataOf(
      apiOf(world.app).shop.order.post(
        { ...identityOf(customer), tariff: 1, period: 1, method: "card" },
        sessionOf(customer),
      ),
    );
    expect(order.sbp).toBeUndefined();
  });
});

test("by default (off) no phone is asked for, and none goes to the gateway even when sent", async () => {
  const world = await makeTestApp();
  const order = await dataOf(sbpOrder(world, "phone-off@example.com", "+79123456789"));
  expect(await phoneAtBank(world, order.sbp?.qrUrl ?? "")).toBeNull();
  const other = await dataOf(sbpOrder(world, "phone-off-none@example.com"));
  expect(other.sbp?.qrUrl).toContain("/dev-sbp?qr=");
});
