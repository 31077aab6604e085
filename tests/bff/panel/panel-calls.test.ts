import { describe, expect, test } from "vitest";
import { addMonths } from "../../../bff/platform/calendar";
import { apiOf, dataOf, identityOf, sessionOf, staffOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { fixture, referralCodeOf, signIn } from "../../helpers/customers";
import { makeOperator, tokensFor } from "../../helpers/operators";
import { cards, ledger, order, passDays, payWithCard } from "../../helpers/payments";

const { app, context } = await makeTestApp();
const api = apiOf(app);
const { panel } = api;
const admin = await makeOperator(context, "panel.admin", "admin");
const { accessToken } = await tokensFor(app, admin.username, admin.password);
const auth = staffOf(accessToken);

const search = (emailPart: string, page = 0) =>
  panel.users.search.post({}, { ...auth, query: { page, size: 10, sortBy: "id", emailPart } });
const userById = (id: number) => dataOf(panel.users.getUserById.post({}, { ...auth, query: { id } }));
const generatePromo = (body: Parameters<typeof panel.promos.generatePromo.post>[0], language?: string) =>
  panel.promos.generatePromo.post(body, {
    headers: { ...auth.headers, ...(language ? { "accept-language": language } : {}) },
  });

for (let index = 0; index < 23; index++)
  await fixture(app, {
    email: `Search.Person${index}@Example.org`,
    status: index % 2 ? "ACTIVE" : "NOT_ACTIVE",
  });
await fixture(app, { email: "other@mail.test", status: "EXPIRED" });

describe("users/search", () => {
  test("finds e-mail substrings whatever their case, 10 per page, with the status", async () => {
    const firstCall = search("search.PERSON");
    expect((await firstCall).status).toBe(200);
    const first = await dataOf(firstCall);
    expect(first.content).toHaveLength(10);
    expect(first.page).toEqual({ size: 10, number: 0, totalElements: 23, totalPages: 3 });
    expect(first.content[0]).toMatchObject({
      email: "Search.Person0@Example.org",
      subscription: { status: "NOT_ACTIVE" },
    });
    expect(first.content[1]).toMatchObject({ subscription: { status: "ACTIVE" } });
    const last = await dataOf(search("search.person", 2));
    expect(last.content).toHaveLength(3);
    const short = await dataOf(search(".t"));
    expect(short.content.map((user) => user.email)).toEqual(["other@mail.test"]);
    const none = await dataOf(search("nobody-here"));
    expect(none).toMatchObject({ content: [], page: { totalElements: 0, totalPages: 0 } });
  });

  test("a search with a control character is a 400 that says so, not a broken index query", async () => {
    for (const part of ["person\u0000x", "\u0000", "a\u001bb"]) {
      const response = await panel.users.search.post(
        {},
        { ...auth, query: { page: 0, size: 10, emailPart: part } },
      );
      expect(response.status).toBe(400);
      expect(response.error?.value).toEqual({
        success: false,
        error: {
          code: "invisible_character",
          message:
            'The query field "emailPart" contains a control character or an invisible direction mark; remove it and try again.',
        },
      });
    }
  });

  test("another page size is refused with a clear message", async () => {
    const wrong = await panel.users.search.post(
      {},
      { ...auth, query: { page: 0, size: 50, emailPart: "a" } },
    );
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.error?.value)).toContain("size must be 10");
  });
});

describe("a customer's details, receipts, invitees and logs", () => {
  test("getUserById, checks (3 per page), invitees (10 per page), logs", async () => {
    const customer = await signIn(app, "details@example.com");
    const options = await order(app, customer, 1, 30);
    await payWithCard(app, options.invoiceId, cards.success);
    const userId = Number(options.accountId.replace("customer-", ""));
    const user = await userById(userId);
    expect(user).toMatchObject({
      id: userId,
      email: "details@example.com",
      uid: customer.uid,
      subscription: { status: "ACTIVE", totalCost: 150, deviceCount: 1 },
      currency: "RUB",
      firstPayment: 1,
      firstPaymentIsActive: true,
      isPromoActivated: false,
      discount: 0,
      referralDiscount: 0,
      devices: [],
    });
    const receipts = (size: number) => panel.checks.post({}, { ...auth, query: { userId, page: 0, size } });
    const checks = await dataOf(receipts(3));
    expect(checks.content).toEqual([
      expect.objectContaining({
        accountId: "details@example.com",
        amount: 1,
        status: "COMPLETED",
        kind: "first",
        isWarrantyOver: false,
        subscriptionId: expect.any(Number),
        provider: "cloudpayments",
        method: "card",
      }),
    ]);
    expect((await receipts(7)).status).toBe(400);
    for (const size of [10, 25, 50]) {
      const bigger = receipts(size);
      expect((await bigger).status).toBe(200);
      expect((await dataOf(bigger)).page).toMatchObject({ size, number: 0, totalElements: 1, totalPages: 1 });
    }
    const invitees = await dataOf(
      panel.invitations.getInviteesByInviterId.post(
        {},
        { ...auth, query: { userId, size: 10, page: 0, sortBy: "created", sortDirection: "DESC" } },
      ),
    );
    expect(invitees).toMatchObject({
      invitations: { content: [], page: { size: 10, number: 0, totalElements: 0 } },
      page: { size: 10, number: 0, totalElements: 0, totalPages: 0 },
    });
    const logs = await panel.logs.post({}, { ...auth, query: { userId } });
    expect(logs.data).toEqual([]);
    const missing = await panel.users.getUserById.post({}, { ...auth, query: { id: 999999 } });
    expect(missing.status).toBe(404);
  });

  test("the permanent cost is what the next renewal charges: the tariff plus an extra device slot", async () => {
    const customer = await signIn(app, "two-slots@example.com");
    const options = await order(app, customer, 1, 30);
    await payWithCard(app, options.invoiceId, cards.success);
    expect((await api.profile.addDevice.post(identityOf(customer), sessionOf(customer))).status).toBe(200);
    const userId = Number(options.accountId.replace("customer-", ""));
    expect(await userById(userId)).toMatchObject({
      subscription: {
        totalCost: 200,
        deviceCount: 2,
        cost: { months: 1, tariffPrice: 150, extraDevicesPrice: 50, discountPercent: 0 },
      },
      currency: "RUB",
    });
  });
});

describe("promo codes", () => {
  const today = new Date(context.clock.now()).toISOString().slice(0, 10);
  const months = (count: number) =>
    new Date(addMonths(Date.parse(`${today}T00:00:00Z`), count)).toISOString().slice(0, 10);
  const valid = {
    promoCode: "WINTER25",
    promoType: "DISCOUNT",
    isAvailable: true,
    discount: 0.25,
    expirationDate: months(3),
  };

  test.each([
    [{ promoCode: "ABCD" }, "promo_code_too_short", "promo code must be 5 or more characters"],
    [
      { promoCode: "BAD CODE" },
      "promo_code_invalid_characters",
      "promo code may contain only A-Z, 0-9, underscore and hyphen",
    ],
    [{ discount: 0.15 }, "promo_discount_out_of_range", "discount must be 20 to 50 and multiple of 5"],
    [{ discount: 0.55 }, "promo_discount_out_of_range", "discount must be 20 to 50 and multiple of 5"],
    [{ discount: 0.22 }, "promo_discount_out_of_range", "discount must be 20 to 50 and multiple of 5"],
    [{ expirationDate: months(13) }, "promo_validity_out_of_range", "validity must be 1 to 12 months"],
    [{ expirationDate: today }, "promo_validity_out_of_range", "validity must be 1 to 12 months"],
    [{ expirationDate: "2026-02-30x" }, "promo_validity_out_of_range", "validity must be 1 to 12 months"],
    [{ promoType: "FREE_YEAR" }, "promo_type_unknown", "such promo codes cannot be created"],
  ])("%j is refused: %s", async (change, code, message) => {
    const response = await generatePromo({ ...valid, ...change });
    expect(response.status).toBe(400);
    // The spec's `message` (generatePromo answers `message, success`) beside DESIGN §9's error.
    expect(response.error?.value).toEqual({ success: false, message, error: { code, message } });
  });

  test("a refusal is worded in the operator's language", async () => {
    const response = await generatePromo({ ...valid, promoCode: "ABCD" }, "ru");
    expect(response.status).toBe(400);
    const message = "промокод должен содержать 5 или более символов";
    expect(response.error?.value).toEqual({
      success: false,
      message,
      error: { code: "promo_code_too_short", message },
    });
  });

  test("the created message is worded in the operator's language too", async () => {
    const create = (promoCode: string, language: string) =>
      dataOf(generatePromo({ ...valid, promoCode }, language));
    expect(await create("worded_en", "en")).toEqual({
      success: true,
      message: "Promo code WORDED_EN created.",
    });
    expect(await create("worded_ru", "ru")).toEqual({
      success: true,
      message: "Промокод WORDED_RU создан.",
    });
  });

  test.each([
    [{ promoCode: "abc_1" }],
    [{ discount: 0.2 }],
    [{ discount: 0.5 }],
    [{ expirationDate: months(1) }],
    [{ expirationDate: months(12) }],
  ])("%j at the edge is accepted", async (change) => {
    const code = `EDGE${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    const response = await generatePromo({ ...valid, promoCode: code, ...change });
    expect(response.status).toBe(200);
    expect(response.data?.success).toBe(true);
  });

  test("codes are stored upper-case, duplicates refused, listed 5 per page newest first", async () => {
    expect((await generatePromo({ ...valid, promoCode: "dupl1" })).status).toBe(200);
    const again = await generatePromo({ ...valid, promoCode: "DUPL1" });
    expect(again.status).toBe(409);
    const taken = "A promo code with this name already exists.";
    expect(again.error?.value).toEqual({
      success: false,
      message: taken,
      error: { code: "promo_code_taken", message: taken },
    });
    const available = (code?: string) =>
      dataOf(
        panel.promos.availablePromos.get({
          ...auth,
          query: { page: 0, size: 5, sortBy: "id", sortDirection: "DESC", code },
        }),
      );
    const list = await available();
    expect(list.content).toHaveLength(5);
    expect(list.content[0]).toMatchObject({
      promoCode: "DUPL1",
      promoType: "DISCOUNT",
      isAvailable: true,
      discount: 0.25,
      expirationDate: months(3),
    });
    expect(list.page.size).toBe(5);
    const found = await available("upl");
    expect(found.content.map((promo) => promo.promoCode)).toEqual(["DUPL1"]);
    expect(found.page).toMatchObject({ totalElements: 1, totalPages: 1 });
    // LIKE's own wildcards are matched as themselves.
    expect((await available("%_")).content).toEqual([]);
    // Each kind's name is the catalogue's, in the operator's language.
    const types = await panel.promos.promoTypes.get({ headers: { ...auth.headers, cookie: "i18next=ru" } });
    expect(types.data).toEqual([{ type: "DISCOUNT", name: "Скидка на подписку" }]);
    const inEnglish = await panel.promos.promoTypes.get({
      headers: { ...auth.headers, "accept-language": "en" },
    });
    expect(inEnglish.data).toEqual([{ type: "DISCOUNT", name: "Subscription discount" }]);
  });
});

describe("refund", () => {
  test("refunds through the gateway, ends access at once, is audited; a second refund answers Success false", async () => {
    const customer = await signIn(app, "refund-me@example.com");
    const options = await order(app, customer, 1, 30);
    await payWithCard(app, options.invoiceId, cards.success);
    const refund = () => panel.refund.post({ email: "refund-me@example.com", uid: customer.uid }, auth);
    const first = await refund();
    expect(first.data).toMatchObject({ Success: true, Message: expect.stringContaining("60 days") });
    const userId = Number(options.accountId.replace("customer-", ""));
    expect(await userById(userId)).toMatchObject({
      subscription: { status: "EXPIRED" },
      hasAccess: false,
    });
    expect((await ledger(app, options.accountId)).map((entry) => [entry.kind, entry.amount])).toEqual([
      ["payment", 1],
      ["refund", 1],
    ]);
    const second = await refund();
    expect(second.data).toMatchObject({ Success: false });
    const audit = await dataOf(panel.audit.get({ ...auth, query: { page: 0, size: 20 } }));
    expect(audit.content[0]).toMatchObject({
      operator: "panel.admin",
      action: "refund",
      targetEmail: "refund-me@example.com",
    });
  });

  test("an invitee's refund takes the inviter's referral discount away", async () => {
    const inviter = await signIn(app, "loses-discount@example.com");
    const code = await referralCodeOf(app, inviter);
    // The friend counts once it has paid more than the trial: the trial, then its first renewal.
    const friend = await signIn(app, "refunded-friend@example.com", { referralCode: code, period: 1 });
    await payWithCard(app, (await order(app, friend, 1, 1)).invoiceId, cards.success);
    await passDays(app, 1.5);
    const shop = async () =>
      (await dataOf(api.shop.getShop.post({ email: inviter.email }, sessionOf(inviter)))).discount;
    expect(await shop()).toBe(0.25);
    // The clock moved past the access token's 15 minutes: sign in to the panel again.
    const fresh = staffOf((await tokensFor(app, admin.username, admin.password)).accessToken);
    await panel.refund.post({ email: "refunded-friend@example.com", uid: friend.uid }, fresh);
    expect(await shop()).toBe(0);
  });
});
