import { describe, expect, test } from "vitest";
import { healthMinimumCalls, healthWindowMs } from "../../../bff/modules/payments/routing/provider-health";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf, staffOf } from "../../helpers/api";
import { makeTestApp, productionSettings } from "../../helpers/app";
import { type SignedIn, signIn } from "../../helpers/customers";
import { makeOperator, tokensFor } from "../../helpers/operators";
import { passDays } from "../../helpers/payments";
import { payAtCheckout, profileOf } from "../../helpers/yookassa";

// DESIGN §6, choice and failover: the operator's order of providers and methods (audited),
// what new purchases are offered by it, and a provider that fails most calls for 5 minutes
// skipped until it recovers by itself, with its metric.

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

async function panelOf(world: TestApp, role: "admin" | "support" = "admin") {
  const staff = await makeOperator(world.context, `routes.${role}`, role);
  const auth = staffOf((await tokensFor(world.app, staff.username, staff.password)).accessToken);
  const { payments } = apiOf(world.app).panel;
  return {
    read: () => payments.routes.get(auth),
    audit: () => apiOf(world.app).panel.audit.get({ ...auth, query: { page: 0, size: 20 } }),
    save: (routes: Parameters<typeof payments.routes.put>[0]["routes"]) =>
      payments.routes.put({ routes }, auth),
  };
}

const sbpOrder = (world: TestApp, customer: SignedIn) =>
  apiOf(world.app).shop.order.post(
    { ...identityOf(customer), tariff: 1, period: 30, method: "sbp" },
    sessionOf(customer),
  );

const cardOrder = (world: TestApp, customer: SignedIn) =>
  apiOf(world.app).shop.order.post({ ...identityOf(customer), tariff: 1, period: 30 }, sessionOf(customer));

const off = (route: (typeof demoRoutes)[number]) => ({ ...route, enabled: false });

const demoRoutes = [
  { provider: "cloudpayments", method: "card", enabled: true },
  { provider: "cloudpayments", method: "sbp", enabled: true },
  { provider: "yookassa", method: "card", enabled: true },
  { provider: "yookassa", method: "sbp", enabled: true },
] as const;

describe("the panel's payment routes", () => {
  test("administrators read each provider and method in order, with each provider's health; support staff may not", async () => {
    const world = await makeTestApp();
    const routes = await dataOf((await panelOf(world)).read());
    expect(routes.routes.map(({ provider, method, enabled }) => ({ provider, method, enabled }))).toEqual(
      demoRoutes,
    );
    expect(routes.routes.map(({ configured }) => configured)).toEqual([true, true, true, true]);
    expect(routes.providers).toEqual([
      { provider: "cloudpayments", healthy: true, calls: 0, failed: 0 },
      { provider: "yookassa", healthy: true, calls: 0, failed: 0 },
    ]);
    expect(await refusalOf((await panelOf(world, "support")).read())).toMatchObject({
      status: 403,
      code: "admin_only",
    });
  });

  test("a change names every pair once, switches on only a configured provider, and is audited", async () => {
    const world = await makeTestApp();
    const panel = await panelOf(world);
    expect(await refusalOf(panel.save(demoRoutes.slice(0, 3)))).toMatchObject({
      status: 400,
      code: "payment_routes_incomplete",
    });
    expect(await refusalOf(panel.save([...demoRoutes.slice(0, 3), demoRoutes[0]]))).toMatchObject({
      status: 400,
      code: "payment_routes_incomplete",
    });
    const reordered = [
      demoRoutes[1],
      { ...demoRoutes[0], enabled: false },
      demoRoutes[2],
      { ...demoRoutes[3], enabled: false },
    ];
    const saved = await dataOf(panel.save(reordered));
    expect(saved.routes.map(({ provider, method, enabled }) => ({ provider, method, enabled }))).toEqual(
      reordered,
    );
    expect((await dataOf(panel.read())).routes.map(({ method }) => method)).toEqual([
      "sbp",
      "card",
      "card",
      "sbp",
    ]);
    const audited = (await dataOf(panel.audit())).content.filter(
      ({ action }) => action === "payments.routes",
    );
    expect(audited).toEqual([
      expect.objectContaining({
        operator: "routes.admin",
        details: { before: demoRoutes, after: reordered },
      }),
    ]);
  });

  test("a real shop starts with cards at CloudPayments, and cannot switch on YooKassa without its keys", async () => {
    // No YooKassa pair: a real shop without one has no YooKassa.
    const world = await makeTestApp({ ...productionSettings, YOOKASSA_SHOP_ID: "", YOOKASSA_SECRET_KEY: "" });
    const panel = await panelOf(world);
    const routes = await dataOf(panel.read());
    expect(routes.routes).toEqual([
      { provider: "cloudpayments", method: "card", enabled: true, configured: true },
      { provider: "cloudpayments", method: "sbp", enabled: false, configured: true },
      { provider: "yookassa", method: "card", enabled: false, configured: false },
      { provider: "yookassa", method: "sbp", enabled: false, configured: false },
    ]);
    expect(await refusalOf(panel.save(demoRoutes.map((route) => ({ ...route }))))).toMatchObject({
      status: 409,
      code: "payment_provider_not_configured",
      message: expect.stringContaining("YooKassa"),
    });
  });

  test("a method switched off is not offered: SBP refused as unavailable, every card route off refuses payment", async () => {
    const world = await makeTestApp();
    const panel = await panelOf(world);
    const customer = await signIn(world.app, "routes-off@example.com");
    await dataOf(panel.save([demoRoutes[0], off(demoRoutes[1]), demoRoutes[2], off(demoRoutes[3])]));
    expect(await refusalOf(sbpOrder(world, customer))).toMatchObject({
      status: 409,
      code: "payment_method_unavailable",
    });
    await dataOf(cardOrder(world, customer));
    await dataOf(panel.save([off(demoRoutes[0]), demoRoutes[1], off(demoRoutes[2]), demoRoutes[3]]));
    expect(await refusalOf(cardOrder(world, customer))).toMatchObject({
      status: 503,
      code: "payments_unavailable",
    });
    expect((await dataOf(sbpOrder(world, customer))).sbp?.qrUrl).toContain("/dev-sbp?qr=");
  });
});

describe("the routes' order decides the provider", () => {
  test("with YooKassa's card route first, a card purchase is paid on its page and activates the subscription", async () => {
    const world = await makeTestApp();
    const panel = await panelOf(world);
    await dataOf(panel.save([demoRoutes[2], demoRoutes[0], demoRoutes[1], demoRoutes[3]]));
    const customer = await signIn(world.app, "routes-yookassa@example.com");
    const order = await dataOf(cardOrder(world, customer));
    expect(order).toMatchObject({
      provider: "yookassa",
      confirmationUrl: expect.stringContaining("/checkout"),
    });
    const paymentId = new URL(order.confirmationUrl ?? "").searchParams.get("orderId") ?? "";
    await payAtCheckout(world.app, paymentId, "4242424242424242");
    // Back from YooKassa's page: its payment is asked there, then the cabinet opens.
    const back = await world.app.handle(
      new Request(`http://localhost/api/payments/yookassa/return?order=${order.invoiceId}`),
    );
    expect([back.status, back.headers.get("location")]).toEqual([303, "/profile"]);
    expect((await profileOf(world.app, customer)).userInfo.subscriptionStatus).toBe("ACTIVE");
    const [row] = await world.context.database.all<{ provider: string; status: string }>(
      "SELECT provider, status FROM payments WHERE invoice_id = ?",
      [order.invoiceId],
    );
    expect(row).toEqual({ provider: "yookassa", status: "completed" });
  });

  test("a card purchase the routes send to YooKassa saves the card there, and the renewal charges it there", async () => {
    // The cabinet's card order names no saving (CloudPayments' widget saves every card): the
    // server asks YooKassa to save it, or the subscription would end at its first renewal.
    const world = await makeTestApp();
    const panel = await panelOf(world);
    await dataOf(panel.save([demoRoutes[2], demoRoutes[0], demoRoutes[1], demoRoutes[3]]));
    const customer = await signIn(world.app, "routes-yookassa-renews@example.com", { period: 1 });
    const order = await dataOf(
      apiOf(world.app).shop.order.post(
        { ...identityOf(customer), tariff: 1, period: 1 },
        sessionOf(customer),
      ),
    );
    const paymentId = new URL(order.confirmationUrl ?? "").searchParams.get("orderId") ?? "";
    await payAtCheckout(world.app, paymentId, "4242424242424242", "10/31");
    const subscription = await world.context.database.get<{
      card_token: string | null;
      saved_provider: string;
    }>("SELECT card_token, saved_provider FROM subscriptions WHERE user_id = ?", [
      Number(order.accountId.replace("customer-", "")),
    ]);
    expect(subscription).toEqual({ card_token: expect.any(String), saved_provider: "yookassa" });
    await passDays(world.app, 2);
    const renewals = await world.context.database.all<{ provider: string; status: string; amount: number }>(
      "SELECT provider, status, amount FROM payments WHERE account_id = ? AND kind = 'renewal'",
      [order.accountId],
    );
    expect(renewals).toEqual([{ provider: "yookassa", status: "completed", amount: 15_000 }]);
  });

  test("an anonymous purchase, with no e-mail for YooKassa's receipt yet, stays with CloudPayments' widget", async () => {
    const world = await makeTestApp();
    const panel = await panelOf(world);
    await dataOf(panel.save([demoRoutes[2], demoRoutes[0], demoRoutes[1], demoRoutes[3]]));
    const order = await dataOf(
      apiOf(world.app).shop.order.post({
        prepaidToken: "routes-anonymous-token-0001",
        tariff: 1,
        period: 30,
      }),
    );
    expect(order.provider).toBeUndefined();
    expect(order.confirmationUrl).toBeUndefined();
    expect(order.publicId).toBeTruthy();
  });
});

describe("a provider failing most calls", () => {
  test("is marked failing after enough failed calls, in the panel and the metric, and recovers once they are 5 minutes old", async () => {
    const world = await makeTestApp();
    const panel = await panelOf(world);
    const customer = await signIn(world.app, "routes-outage@example.com");
    const { gateway } = world.context.payments;
    const working = gateway.sbpQr;
    gateway.sbpQr = () => Promise.reject(new Error("gateway /payments/qr/sbp/image answered HTTP 502"));
    try {
      for (let call = 1; call < healthMinimumCalls; call++)
        expect(await refusalOf(sbpOrder(world, customer))).toMatchObject({
          code: "payment_service_unreachable",
        });
      // Below the minimum: a blip.
      expect((await dataOf(panel.read())).providers[0]).toMatchObject({
        provider: "cloudpayments",
        healthy: true,
      });
      expect(await refusalOf(sbpOrder(world, customer))).toMatchObject({
        code: "payment_service_unreachable",
      });
    } finally {
      gateway.sbpQr = working;
    }
    expect((await dataOf(panel.read())).providers[0]).toEqual({
      provider: "cloudpayments",
      healthy: false,
      calls: healthMinimumCalls,
      failed: healthMinimumCalls,
    });
    const metrics = await world.context.metrics.registry.metrics();
    expect(metrics).toContain('kannt_payment_provider_up{provider="cloudpayments"} 0');
    expect(metrics).toContain('kannt_payment_provider_up{provider="yookassa"} 1');
    expect(metrics).toContain(
      `kannt_payment_provider_calls_total{provider="cloudpayments",result="failed"} ${healthMinimumCalls}`,
    );
    // New SBP purchases go to the next provider for SBP.
    const failedOver = await dataOf(sbpOrder(world, customer));
    expect(failedOver).toMatchObject({ provider: "yookassa", sbp: { qrUrl: expect.any(String) } });
    // With no other provider for SBP, the failing one is still tried: a purchase tried beats one refused.
    await dataOf(
      panel.save(demoRoutes.map((route) => ({ ...route, enabled: route.provider === "cloudpayments" }))),
    );
    const tried = await dataOf(sbpOrder(world, customer));
    expect(tried.provider).toBeUndefined();
    expect(tried.sbp?.qrUrl).toContain("/dev-sbp?qr=");
    world.clock.advance(healthWindowMs);
    expect((await dataOf(panel.read())).providers[0]).toEqual({
      provider: "cloudpayments",
      healthy: true,
      calls: 0,
      failed: 0,
    });
    expect(await world.context.metrics.registry.metrics()).toContain(
      'kannt_payment_provider_up{provider="cloudpayments"} 1',
    );
  });
});
