import { describe, expect, test } from "vitest";
import { withPeerAddress } from "../../../bff/platform/client-address";
import { type TranslationKey, translator } from "../../../core/i18n";
import { expirationAfter } from "../../../core/promo-rules";
import { makeTestApp, request } from "../../helpers/app";
import { asCustomer, fixture, signIn } from "../../helpers/customers";
import { bearer, makeOperator, tokensFor } from "../../helpers/operators";
import { advanceDays, cards, order, payWithCard } from "../../helpers/payments";

// What an operator reads in the panel: a former customer's status, why a promo code was
// refused and the date it counts from, and where every customer-made payment came from.

const { app, context } = await makeTestApp();
const admin = await makeOperator(context, "view.admin", "admin");
let auth = bearer((await tokensFor(app, admin.username, admin.password)).accessToken);

/** What an operator whose browser asks for no language reads. */
const english = (key: string) => translator("en")(key as TranslationKey);

const call = async (method: "GET" | "POST", path: string, body?: unknown) => {
  const response = await app.handle(
    request(path, {
      method,
      headers: { ...auth, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe("a former customer who signs in again", () => {
  test("is shown as expired, in the search and on the card, not as never subscribed", async () => {
    const { userId } = await fixture(app, { email: "came.back@example.com", status: "EXPIRED" });
    const before = await call("POST", `/api/panel/users/getUserById?id=${userId}`);
    const ended = (before.body.subscription as { endDate: string }).endDate;
    expect(ended).not.toBeNull();
    // Signing in again opens a fresh, unpaid subscription for the plan they would buy.
    await signIn(app, "came.back@example.com");
    const found = await call("POST", "/api/panel/users/search?page=0&size=10&sortBy=id&emailPart=came.back");
    expect(found.body.content).toEqual([
      expect.objectContaining({ id: userId, subscription: { status: "EXPIRED" } }),
    ]);
    const card = await call("POST", `/api/panel/users/getUserById?id=${userId}`);
    expect(card.body.subscription).toMatchObject({ status: "EXPIRED", endDate: ended });
    // One who never paid stays "not active".
    const { userId: never } = await fixture(app, { email: "never.paid@example.com", status: "NOT_ACTIVE" });
    await signIn(app, "never.paid@example.com");
    const neverCard = await call("POST", `/api/panel/users/getUserById?id=${never}`);
    expect(neverCard.body.subscription).toMatchObject({ status: "NOT_ACTIVE", endDate: null });
  });
});

describe("receipts in the panel", () => {
  test("a device slot bought in the cabinet carries the customer's address, like the first payment", async () => {
    const customer = await signIn(app, "slot.address@example.com");
    const options = await order(app, customer, 1, 30);
    await payWithCard(app, options.invoiceId, cards.success);
    const bought = await app.handle(
      withPeerAddress(asCustomer(customer, "/api/profile/addDevice"), "203.0.113.45"),
    );
    expect(bought.status).toBe(200);
    const found = await call(
      "POST",
      "/api/panel/users/search?page=0&size=10&sortBy=id&emailPart=slot.address",
    );
    const userId = (found.body.content as { id: number }[])[0]?.id;
    const receipts = await call("POST", `/api/panel/checks?userId=${userId}&page=0&size=10`);
    const device = (receipts.body.content as { kind: string; ipAddress: string | null }[]).find(
      (receipt) => receipt.kind === "device",
    );
    expect(device?.ipAddress).toBe("203.0.113.45");
  });
});

describe("creating a promo code", () => {
  const promo = (change: Record<string, unknown>) => ({
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
      const answer = await call("POST", "/api/panel/promos/generatePromo", promo(change));
      expect(answer.status, code).toBe(400);
      // The code names the rule; the message is that rule's words, the spec's top-level one too.
      expect(answer.body, code).toMatchObject({
        success: false,
        error: { code, message: english(`errors.${code}`) },
      });
      expect(answer.body.message, code).toBe(english(`errors.${code}`));
    }
  });

  test("validity counts from the server's clock, which the panel reads (the demo's test clock)", async () => {
    await advanceDays(app, 45);
    // Weeks on, the operator signs in afresh (access tokens last minutes).
    auth = bearer((await tokensFor(app, admin.username, admin.password)).accessToken);
    const asked = context.clock.now();
    const clock = await call("GET", "/api/panel/clock");
    expect(clock.status).toBe(200);
    const serverNow = Date.parse(String(clock.body.now));
    expect(serverNow).toBeGreaterThanOrEqual(asked);
    expect(serverNow).toBeLessThanOrEqual(context.clock.now());
    expect(serverNow - Date.now()).toBeGreaterThan(44 * 24 * 60 * 60 * 1000);
    // What a browser would send from its own date is refused; from the server's, accepted.
    const fromBrowser = await call("POST", "/api/panel/promos/generatePromo", {
      ...promo({}),
      expirationDate: expirationAfter(1, Date.now()),
    });
    expect(fromBrowser.body).toMatchObject({
      success: false,
      error: { code: "promo_validity_out_of_range" },
    });
    const fromServer = await call("POST", "/api/panel/promos/generatePromo", {
      ...promo({}),
      expirationDate: expirationAfter(1, serverNow),
    });
    expect(fromServer.status).toBe(200);
  });

  test("the clock is for operators only", async () => {
    expect((await app.handle(request("/api/panel/clock"))).status).toBe(401);
  });
});
