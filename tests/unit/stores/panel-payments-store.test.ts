import { afterEach, describe, expect, test, vi } from "vitest";
import {
  answer,
  endpoints,
  networkFailure,
  panelPage,
  panelStorage,
  pending,
  refusal,
} from "../../helpers/store-api";

// The network is replaced: these tests are about what the Payments screen's store sends and
// shows. Changes stay on screen until Save; the list then shown is the server's answer.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  read: (api) => api.panel.payments.routes.get,
  save: (api) => api.panel.payments.routes.put,
});
const stored = panelStorage();

const { store, toasts } = panelPage(stored, {
  store: () => import("../../../src/stores/panel-payments"),
  toasts: () => import("../../../src/lib/toast/toast-store"),
});
afterEach(() => vi.clearAllMocks());

type Provider = "cloudpayments" | "yookassa";
type Method = "card" | "sbp";
const route = (provider: Provider, method: Method, enabled: boolean) => ({
  provider,
  method,
  enabled,
  configured: provider === "cloudpayments",
});
const cloudCard = route("cloudpayments", "card", true);
const cloudSbp = route("cloudpayments", "sbp", true);
const yooCard = route("yookassa", "card", false);
const yooSbp = route("yookassa", "sbp", false);
const demo = [cloudCard, cloudSbp, yooCard, yooSbp];
const providers = [
  { provider: "cloudpayments", healthy: true, calls: 4, failed: 1 },
  { provider: "yookassa", healthy: true, calls: 0, failed: 0 },
];
const auth = { headers: { authorization: "Bearer operator.token" } };
const shown = () =>
  store.$routesDraft.get()?.map((item) => `${item.provider}/${item.method}:${item.enabled}`);

async function openWith(routes = demo) {
  calls.read.mockReturnValueOnce(answer({ routes, providers }));
  await store.openPaymentRoutes();
}

describe("the Payments screen's store", () => {
  test("the routes open in the server's order, with each provider's health and nothing to save", async () => {
    await openWith();
    expect(calls.read).toHaveBeenCalledWith(auth);
    expect(store.$routesRead.get()).toMatchObject({ state: "ready" });
    expect(store.$routesDraft.get()).toEqual(demo);
    expect(store.$providerHealth.get()).toEqual(providers);
    expect(store.$hasRouteChanges.get()).toBe(false);
  });

  test("a failed read says how and shows no routes; a retry asks again", async () => {
    calls.read.mockReturnValueOnce(refusal(500, "internal", "Something went wrong."));
    await store.openPaymentRoutes();
    expect(store.$routesRead.get()).toEqual({ state: "failed", status: 500, code: "internal" });
    expect(store.$routesDraft.get()).toBeUndefined();
    calls.read.mockReturnValueOnce(answer({ routes: demo, providers }));
    await store.retryPaymentRoutes();
    expect(calls.read).toHaveBeenCalledTimes(2);
    expect(store.$routesDraft.get()).toEqual(demo);
  });

  test("moves and switches change the screen only; the ends and an unconfigured provider stay as they are", async () => {
    await openWith();
    store.moveRoute(cloudSbp, -1);
    store.setRouteEnabled(cloudSbp, false);
    expect(shown()).toEqual([
      "cloudpayments/sbp:false",
      "cloudpayments/card:true",
      "yookassa/card:false",
      "yookassa/sbp:false",
    ]);
    expect(store.$hasRouteChanges.get()).toBe(true);
    const before = shown();
    store.moveRoute(cloudSbp, -1);
    store.moveRoute(yooSbp, 1);
    store.setRouteEnabled(yooCard, true);
    expect(shown()).toEqual(before);
    expect(calls.save).not.toHaveBeenCalled();
  });

  test("a change moved back to where it was is no change", async () => {
    await openWith();
    store.moveRoute(cloudCard, 1);
    expect(store.$hasRouteChanges.get()).toBe(true);
    store.moveRoute(cloudCard, -1);
    expect(store.$hasRouteChanges.get()).toBe(false);
  });

  test("reset puts back what was saved and forgets the last refusal", async () => {
    await openWith();
    store.setRouteEnabled(cloudCard, false);
    calls.save.mockReturnValueOnce(refusal(409, "payment_provider_not_configured", "Not set up."));
    await store.saveRoutes();
    store.resetRoutes();
    expect(store.$routesDraft.get()).toEqual(demo);
    expect(store.$hasRouteChanges.get()).toBe(false);
    expect(store.$routesSave.get()).toEqual({ isBusy: false });
  });

  test("save sends every route in the order on screen, is busy meanwhile, then shows the server's answer", async () => {
    await openWith();
    store.moveRoute(cloudSbp, -1);
    store.setRouteEnabled(cloudSbp, false);
    const held = pending();
    calls.save.mockReturnValueOnce(held.promise);
    const saving = store.saveRoutes();
    expect(store.$routesSave.get()).toEqual({ isBusy: true });
    // A second press while the first is on its way sends nothing more.
    expect(await store.saveRoutes()).toBe(false);
    expect(calls.save).toHaveBeenCalledTimes(1);
    expect(calls.save).toHaveBeenCalledWith(
      {
        routes: [
          { provider: "cloudpayments", method: "sbp", enabled: false },
          { provider: "cloudpayments", method: "card", enabled: true },
          { provider: "yookassa", method: "card", enabled: false },
          { provider: "yookassa", method: "sbp", enabled: false },
        ],
      },
      auth,
    );
    // The server's answer is what the screen shows, whatever was sent.
    const kept = [cloudSbp, cloudCard, yooCard, yooSbp].map((item) => ({ ...item, enabled: false }));
    const health = [{ ...providers[0], healthy: false, calls: 5, failed: 4 }, providers[1]];
    held.finish({ data: { routes: kept, providers: health }, error: null });
    expect(await saving).toBe(true);
    expect(store.$routesSave.get()).toEqual({ isBusy: false });
    expect(store.$routesDraft.get()).toEqual(kept);
    expect(store.$savedRoutes.get()).toEqual(kept);
    expect(store.$providerHealth.get()).toEqual(health);
    expect(store.$hasRouteChanges.get()).toBe(false);
    expect(toasts.$toasts.get().at(-1)).toMatchObject({ type: "success", content: "panel.paymentsSaved" });
  });

  test("a refused save keeps the changes on screen with the code and the server's words", async () => {
    await openWith();
    store.setRouteEnabled(cloudSbp, false);
    calls.save.mockReturnValueOnce(
      refusal(409, "payment_provider_not_configured", "The yookassa shop is not configured."),
    );
    expect(await store.saveRoutes()).toBe(false);
    expect(store.$routesSave.get()).toEqual({
      isBusy: false,
      refusal: {
        status: 409,
        code: "payment_provider_not_configured",
        detail: "The yookassa shop is not configured.",
      },
    });
    expect(store.$hasRouteChanges.get()).toBe(true);
    expect(store.$savedRoutes.get()).toEqual(demo);
    expect(toasts.$toasts.get()).toEqual([]);
  });

  test("a save that reaches no server says so, and the changes wait on screen", async () => {
    await openWith();
    store.setRouteEnabled(cloudSbp, false);
    calls.save.mockReturnValueOnce(Promise.reject(new TypeError("Failed to fetch")));
    expect(await store.saveRoutes()).toBe(false);
    expect(store.$routesSave.get()).toEqual({ isBusy: false, refusal: { status: undefined } });
    expect(store.$hasRouteChanges.get()).toBe(true);
    calls.save.mockReturnValueOnce(networkFailure());
    await store.saveRoutes();
    expect(store.$routesSave.get().refusal).toMatchObject({ status: 503 });
  });
});
