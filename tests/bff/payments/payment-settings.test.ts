import { describe, expect, test } from "vitest";
import { apiOf, dataOf } from "../../helpers/api";
import { makeTestApp, productionSettings } from "../../helpers/app";

// DESIGN §6: the purchase screens offer "СБП" beside the card only where the server takes it
// (offered, and a purchase in roubles), so they never show a choice the order would refuse.

const inLanguage = (language: string) => ({ headers: { cookie: `i18next=${language}` } });

describe("GET /api/payments/settings", () => {
  test("in demo a rouble purchase can be paid by card or SBP, a tenge one by card only", async () => {
    const { app, context } = await makeTestApp();
    const api = apiOf(app);
    const roubles = await dataOf(api.payments.settings.get({ query: { currency: "RUB" } }));
    // The widget's fields are as they were.
    expect(roubles).toEqual({
      publicId: context.payments.gateway.publicId,
      widgetScriptUrl: context.payments.widgetScriptUrl,
      isSandbox: true,
      methods: ["card", "sbp"],
      sbpNeedsPhone: false,
    });
    const tenge = await dataOf(api.payments.settings.get({ query: { currency: "KZT" } }));
    expect(tenge.methods).toEqual(["card"]);
  });

  test("without a currency, the purchase is the interface language's: roubles in ru, tenge in kk", async () => {
    const api = apiOf((await makeTestApp()).app);
    const methodsIn = async (language: string) =>
      (await dataOf(api.payments.settings.get(inLanguage(language)))).methods;
    expect(await methodsIn("ru")).toEqual(["card", "sbp"]);
    expect(await methodsIn("zh")).toEqual(["card", "sbp"]);
    expect(await methodsIn("kk")).toEqual(["card"]);
    // A customer who pays in roubles reading the cabinet in Kazakh is offered SBP: the currency decides.
    const rubInKazakh = await dataOf(
      api.payments.settings.get({ query: { currency: "RUB" }, ...inLanguage("kk") }),
    );
    expect(rubInKazakh.methods).toEqual(["card", "sbp"]);
  });

  test("SBP_PAYER_PHONE=required tells the screens to ask for the payer's phone", async () => {
    const api = apiOf((await makeTestApp({ SBP_PAYER_PHONE: "required" })).app);
    const settings = await dataOf(api.payments.settings.get({ query: { currency: "RUB" } }));
    expect(settings).toMatchObject({ methods: ["card", "sbp"], sbpNeedsPhone: true });
  });

  test("in production, until the operator can enable SBP, only the card is offered", async () => {
    const api = apiOf((await makeTestApp(productionSettings)).app);
    const settings = await dataOf(api.payments.settings.get({ query: { currency: "RUB" } }));
    expect(settings).toMatchObject({ methods: ["card"], isSandbox: false });
  });

  test("a currency the shop does not sell in is refused, not guessed", async () => {
    const { app } = await makeTestApp();
    const response = await app.handle(new Request("http://localhost/api/payments/settings?currency=USD"));
    // The typed client cannot send it, so the request is raw.
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("invalid_input");
  });
});
