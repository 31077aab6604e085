import { describe, expect, test } from "vitest";
import { translator } from "../../../core/i18n";
import { paymentsRefusalKey, routesChangeWords } from "../../../src/islands/panel/payments-words";
import { routeName } from "../../../src/islands/panel/route-name";

const t = translator("en");
const ru = translator("ru");
const zh = translator("zh");

type Provider = "cloudpayments" | "yookassa";
type Method = "card" | "sbp";
const route = (provider: Provider, method: Method, enabled = true) => ({ provider, method, enabled });
const demo = [
  route("cloudpayments", "card"),
  route("cloudpayments", "sbp"),
  route("yookassa", "card", false),
  route("yookassa", "sbp", false),
];

describe("the Payments screen's words", () => {
  test("a route is named by its provider, as the language writes it, and its method", () => {
    expect(routeName(t, route("yookassa", "sbp"))).toBe("YooKassa (SBP)");
    expect(routeName(ru, route("yookassa", "card"))).toBe("ЮKassa (карта)");
    expect(routeName(zh, route("cloudpayments", "sbp"))).toBe("CloudPayments（快速支付系统）");
  });

  test("the audit says which route moved where and which were switched on or off", () => {
    const after = [{ ...demo[1], enabled: false }, demo[0], demo[2], demo[3]];
    expect(routesChangeWords({ before: demo, after }, t)).toBe(
      "changed the payment routes: moved CloudPayments (SBP) to place 1; switched off CloudPayments (SBP)",
    );
    expect(routesChangeWords({ before: demo, after }, ru)).toBe(
      "изменил маршрутизацию платежей: переместил CloudPayments (СБП) на 1-е место; выключил CloudPayments (СБП)",
    );
  });

  test("one route taken past two others reads as that one moved, not as the two it passed", () => {
    const after = [demo[0], demo[3], demo[1], demo[2]];
    expect(routesChangeWords({ before: demo, after }, t)).toBe(
      "changed the payment routes: moved YooKassa (SBP) to place 2",
    );
    const switchedOn = demo.map((item) => ({ ...item, enabled: true }));
    expect(routesChangeWords({ before: demo, after: switchedOn }, t)).toBe(
      "changed the payment routes: switched on YooKassa (card); switched on YooKassa (SBP)",
    );
  });

  test("a save that changed nothing says so; an entry without its lists claims no detail", () => {
    expect(routesChangeWords({ before: demo, after: demo }, t)).toBe("saved the payment routes unchanged");
    expect(routesChangeWords({}, t)).toBe("changed the payment routes");
    expect(routesChangeWords({ before: "nonsense", after: [{ provider: "toString" }] }, t)).toBe(
      "changed the payment routes",
    );
  });

  test("a refused save reads by its code; no answer at all is the connection", () => {
    expect(paymentsRefusalKey({ status: undefined })).toBe("panel.connectionFailed");
    expect(paymentsRefusalKey({ status: 409, code: "payment_provider_not_configured" })).toBe(
      "panel.paymentsRefusedNotConfigured",
    );
    expect(paymentsRefusalKey({ status: 400, code: "payment_routes_incomplete" })).toBe(
      "panel.paymentsRefusedIncomplete",
    );
    expect(paymentsRefusalKey({ status: 403, code: "admin_only" })).toBe("panel.forbidden");
    expect(paymentsRefusalKey({ status: 500, code: "internal" })).toBe("panel.requestFailed");
  });
});
