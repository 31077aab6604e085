import { describe, expect, test } from "vitest";
import { withPeerAddress } from "../../../bff/platform/client-address";
import { type TranslationKey, translator } from "../../../core/i18n";
import { expirationAfter } from "../../../core/promo-rules";
import { apiOf, dataOf, staffOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { asCustomer, fixture, signIn } from "../../helpers/customers";
import { makeOperator, tokensFor } from "../../helpers/operators";
import { advanceDays, cards, order, payWithCard } from "../../helpers/payments";
import { payQr, sbpOrder } from "../../helpers/sbp";
import { yooKassaCardCustomer } from "../../helpers/yookassa";

// What an operator reads in the panel: a former customer's status, why a promo code was
// refused and the date it counts from, and where every customer-made payment came from.

const world = await makeTestApp();
const { app, context } = world;
const { panel } = apiOf(app);
const admin = await makeOperator(context, "view.admin", "admin");
let auth = staffOf((await tokensFor(app, admin.username, admin.password)).accessToken);

/** What an operator whose browser asks for no language reads. */
const english = (key: string) => translator("en")(key as TranslationKey);

const userById = (id: number) => dataOf(panel.users.getUserById.post({}, { ...auth, query: { id } }));
const search = (emailPart: string) =>
  dataOf(panel.users.search.post({}, { ...auth, query: { page: 0, size: 10, sortBy: "id", emailPart } }));
const generatePromo = (body: Parameters<typeof panel.promos.generatePromo.post>[0]) =>
  panel.promos.generatePromo.post(body, auth);

describe("a former customer who signs in again", () => {
  test("is shown as expired, in the search and on the card, not as never subscribed", async () => {
    const { userId } = await fixture(app, { email: "came.back@example.com", status: "EXPIRED" });
    const before = await userById(userId);
    const ended = before.subscription.endDate;
    expect(ended).not.toBeNull();
    // Signing in again opens a fresh, unpaid subscription for the plan they would buy.
    await signIn(app, "came.back@example.com");
    const found = await search("came.back");
    expect(found.content).toEqual([
      expect.objectContaining({ id: userId, subscription: { status: "EXPIRED" } }),
    ]);
    const card = await userById(userId);
    expect(card.subscription).toMatchObject({ status: "EXPIRED", endDate: ended });
    // One who never paid stays "not active".
    const { userId: never } = await fixture(app, { email: "never.paid@example.com", status: "NOT_ACTIVE" });
    await signIn(app, "never.paid@example.com");
    const neverCard = await userById(never);
    expect(neverCard.subscription).toMatchObject({ status: "NOT_ACTIVE", endDate: null });
  });
});

describe("receipts in the panel", () => {
  test("a device slot bought in the cabinet carries the customer's address, like the first payment", async () => {
    const customer = await signIn(app, "slot.address@example.com");
    const options = await order(app, customer, 1, 30);
    await payWithCard(app, options.invoiceId, cards.success);
    // Raw: the customer's address is the socket peer, which no client call can set.
    const bought = await app.handle(
      withPeerAddress(asCustomer(customer, "/api/profile/addDevice"), "203.0.113.45"),
    );
    expect(bought.status).toBe(200);
    const userId = (await search("slot.address")).content[0]?.id ?? 0;
    const receipts = await dataOf(panel.checks.post({}, { ...auth, query: { userId, page: 0, size: 10 } }));
    const device = receipts.content.find((receipt) => receipt.kind === "device");
    expect(device?.ipAddress).toBe("203.0.113.45");
  });

  test("each receipt names the provider that took it and how it was paid", async () => {
    const receiptsOf = async (accountId: string) => {
      const userId = Number(accountId.replace("customer-", ""));
      const page = await dataOf(panel.checks.post({}, { ...auth, query: { userId, page: 0, size: 10 } }));
      return page.content.map(({ kind, status, provider, method }) => ({ kind, status, provider, method }));
    };
    const bySbp = await signIn(app, "receipt.sbp@example.com");
    const sbp = await sbpOrder(world, bySbp);
    expect((await payQr(world, sbp.qr)).success).toBe(true);
    expect(await receiptsOf(sbp.accountId)).toEqual([
      { kind: "first", status: "COMPLETED", provider: "cloudpayments", method: "sbp" },
    ]);
    // A card the sandbox has not seen pay a trial before, so the trial stands.
    const atYooKassa = await yooKassaCardCustomer(
      app,
      context,
      "receipt.yookassa@example.com",
      "5555 5555 5555 4444",
    );
    expect(await receiptsOf(atYooKassa.accountId)).toEqual([
      { kind: "first", status: "COMPLETED", provider: "yookassa", method: "card" },
    ]);
  });
});

describe("creating a promo code", () => {
  const promo = (change: Partial<Parameters<typeof generatePromo>[0]>) => ({
    promoCode: `VIEW${Math.random().toString(36).slice(2, 8).toUpperCase()}`,
    promoType: "DISCOUNT",
    isAvailable: true,
    discount: 0.25,
    expirationDate: expirationAfter(3, context.clock.now()),
    ...change,
  });

  test("a refusal names the rule it broke, for the panel to say in the operator's language", async () => {
    for (const [change, code] of [
      [{ promoCode: "ABCD" }, "promo_code_too_short"],
      [{ promoCode: "BAD CODE" }, "promo_code_invalid_characters"],
      [{ promoType: "FREE_YEAR" }, "promo_type_unknown"],
      [{ discount: 0.15 }, "promo_discount_out_of_range"],
      [{ expirationDate: "2020-01-01" }, "promo_validity_out_of_range"],
    ] as const) {
      const answer = await generatePromo(promo(change));
      expect(answer.status, code).toBe(400);
      // The code names the rule; the message is that rule's words, the spec's top-level one too.
      expect(answer.error?.value, code).toMatchObject({
        success: false,
        message: english(`errors.${code}`),
        error: { code, message: english(`errors.${code}`) },
      });
    }
  });

  test("validity counts from the server's clock, which the panel reads (the demo's test clock)", async () => {
    await advanceDays(app, 45);
    // Weeks on, the operator signs in afresh (access tokens last minutes).
    auth = staffOf((await tokensFor(app, admin.username, admin.password)).accessToken);
    const asked = context.clock.now();
    const clock = panel.clock.get(auth);
    expect((await clock).status).toBe(200);
    const serverNow = Date.parse((await dataOf(clock)).now);
    expect(serverNow).toBeGreaterThanOrEqual(asked);
    expect(serverNow).toBeLessThanOrEqual(context.clock.now());
    expect(serverNow - Date.now()).toBeGreaterThan(44 * 24 * 60 * 60 * 1000);
    // What a browser would send from its own date is refused; from the server's, accepted.
    const fromBrowser = await generatePromo(promo({ expirationDate: expirationAfter(1, Date.now()) }));
    expect(fromBrowser.error?.value).toMatchObject({
      success: false,
      error: { code: "promo_validity_out_of_range" },
    });
    const fromServer = await generatePromo(promo({ expirationDate: expirationAfter(1, serverNow) }));
    expect(fromServer.status).toBe(200);
  });

  test("the clock is for operators only", async () => {
    expect((await panel.clock.get()).status).toBe(401);
  });
});
