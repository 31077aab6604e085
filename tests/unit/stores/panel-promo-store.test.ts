import { afterEach, describe, expect, test, vi } from "vitest";
import { endpoints, panelPage, panelStorage, pending } from "../../helpers/store-api";

// The network is replaced: these tests are about the promo screen's rules and what its store keeps.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  types: (api) => api.panel.promos.promoTypes.get,
  list: (api) => api.panel.promos.availablePromos.get,
  clock: (api) => api.panel.clock.get,
  generate: (api) => api.panel.promos.generatePromo.post,
});
const stored = panelStorage();

const { store, toasts } = panelPage(stored, {
  store: () => import("../../../src/stores/panel-promo"),
  toasts: () => import("../../../src/lib/toast/toast-store"),
});
afterEach(() => {
  vi.clearAllMocks();
  vi.useRealTimers();
});

const answer = (data: unknown) => Promise.resolve({ data, error: null });
const refusal = (status: number, value?: unknown) =>
  Promise.resolve({ data: null, error: { status, value } });
const promos = (...codes: string[]) => ({
  content: codes.map((promoCode, index) => ({ id: index + 1, promoCode })),
  page: { totalPages: 3 },
});
const lastListQuery = () => calls.list.mock.lastCall?.[0]?.query;
const discountType = { type: "DISCOUNT", name: "Subscription discount" };

/** A form that passes the spec's rules, on a server whose today is 31 January. */
function validForm() {
  store.editPromo("code", "spring-26");
  store.editPromo("type", "DISCOUNT");
  store.editPromo("discount", 35);
  store.editPromo("months", 1);
  calls.clock.mockReturnValue(answer({ now: "2027-01-31T10:00:00.000Z" }));
}

describe("the promo screen's store", () => {
  test("the kinds and the list are asked at once, and the first kind is chosen", async () => {
    const { promise: laterTypes, finish: finishTypes } = pending();
    calls.types.mockReturnValueOnce(laterTypes);
    calls.list.mockReturnValueOnce(answer(promos("SPRING")));
    const opening = store.openPromos();
    expect(calls.types).toHaveBeenCalledOnce();
    expect(calls.list).toHaveBeenCalledOnce();
    finishTypes({ data: [discountType], error: null });
    await opening;
    expect(lastListQuery()).toEqual({ page: 0, size: 5, sortBy: "id", sortDirection: "DESC" });
    expect(store.$promoTypes.get()).toEqual([discountType]);
    expect(store.$promoDraft.get().type).toBe("DISCOUNT");
    expect(store.$promoList.get()).toEqual({ state: "ready", data: promos("SPRING") });
  });

  test("kinds that could not be read are a failure to retry, never 'there are none'", async () => {
    store.$promoTypes.set(undefined);
    calls.types.mockReturnValueOnce(refusal(500));
    calls.list.mockReturnValue(answer(promos()));
    await store.openPromos();
    expect(store.$promoTypes.get()).toBeUndefined();
    expect(store.$promoTypesFailure.get()).toMatchObject({ status: 500 });
    calls.types.mockReturnValueOnce(Promise.reject(new TypeError("Failed to fetch")));
    await store.loadPromoTypes();
    expect(store.$promoTypes.get()).toBeUndefined();
    expect(store.$promoTypesFailure.get()).toEqual({ status: undefined });
    calls.types.mockReturnValueOnce(answer([]));
    await store.loadPromoTypes();
    expect(store.$promoTypesFailure.get()).toBeUndefined();
    expect(store.$promoTypes.get()).toEqual([]);
  });

  test("a code is kept as the server keeps it: upper case, without spaces or other signs", () => {
    store.editPromo("code", "ab c!d");
    expect(store.$promoDraft.get().code).toBe("ABCD");
    store.editPromoSearch("sp ring");
    expect(store.$promoSearch.get()).toBe("SPRING");
  });

  test("a form that breaks the rules is refused in place, asks nothing, and the messages clear after 7 seconds", async () => {
    vi.useFakeTimers();
    store.editPromo("code", "abc");
    store.editPromo("discount", 55);
    store.editPromo("months", 13);
    await store.createPromo();
    expect(store.$promoFieldErrors.get()).toEqual({ code: true, discount: true, validity: true });
    expect(calls.generate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(store.fieldErrorLifetimeMs - 1);
    expect(store.$promoFieldErrors.get()).not.toEqual({});
    vi.advanceTimersByTime(1);
    expect(store.$promoFieldErrors.get()).toEqual({});
  });

  test("a created code is confirmed, the code field empties and the list shows its first page again", async () => {
    calls.list.mockReturnValue(answer(promos("OLD")));
    await store.showPromoPage(2);
    store.editPromoSearch("OL");
    validForm();
    calls.generate.mockReturnValueOnce(answer({ success: true }));
    calls.list.mockReturnValueOnce(answer(promos("SPRING-26", "OLD")));
    await store.createPromo();
    expect(calls.generate).toHaveBeenCalledWith(
      {
        promoCode: "SPRING-26",
        promoType: "DISCOUNT",
        isAvailable: true,
        discount: 0.35,
        // One month from the server's today, not this browser's: the last day of February.
        expirationDate: "2027-02-28",
      },
      { headers: { authorization: "Bearer operator.token" } },
    );
    expect(toasts.$toasts.get().at(-1)).toMatchObject({ type: "success", content: "panel.promoCreated" });
    expect(store.$promoDraft.get().code).toBe("");
    expect(store.$promoSearch.get()).toBe("");
    expect(lastListQuery()).toEqual({ page: 0, size: 5, sortBy: "id", sortDirection: "DESC" });
    expect(store.$promoList.get()).toEqual({ state: "ready", data: promos("SPRING-26", "OLD") });
    expect(store.$promoRefusal.get()).toBeUndefined();
  });

  test("the server's refusals are in the operator's words already, and the typed code stays", async () => {
    validForm();
    /** The server's refusal: its code and its words, in the operator's language (and as the spec's `message`). */
    const worded = (status: number, code: string, message: string) =>
      refusal(status, { success: false, message, error: { code, message } });
    const refusals: [Promise<unknown>, string][] = [
      [
        worded(409, "promo_code_taken", "Промокод с таким названием уже существует."),
        "Промокод с таким названием уже существует.",
      ],
      [
        worded(
          400,
          "promo_code_invalid_characters",
          "promo code may contain only A-Z, 0-9, underscore and hyphen",
        ),
        "promo code may contain only A-Z, 0-9, underscore and hyphen",
      ],
      // Support staff are told in the screen's words that the section is not theirs: by the code.
      [worded(403, "admin_only", "Only an administrator can do this."), "panel.forbidden"],
      [
        worded(403, "invalid_input", 'Field "discount": Expected number.'),
        'Field "discount": Expected number.',
      ],
      [worded(500, "internal", "Something broke on our side."), "Something broke on our side."],
      [refusal(502), "panel.promoFailed"],
      [Promise.reject(new TypeError("Failed to fetch")), "panel.promoFailed"],
    ];
    for (const [outcome, words] of refusals) {
      calls.generate.mockReturnValueOnce(outcome);
      await store.createPromo();
      expect(store.$promoRefusal.get()).toBe(words);
    }
    expect(store.$promoDraft.get().code).toBe("SPRING-26");
    expect(calls.list).not.toHaveBeenCalled();
  });

  test("the list is searched by the typed part without its spaces, and paged", async () => {
    calls.list.mockReturnValue(answer(promos("SPRING")));
    store.editPromoSearch("spr ");
    await store.searchPromos();
    expect(lastListQuery()).toMatchObject({ page: 0, code: "SPR" });
    await store.showPromoPage(1);
    expect(lastListQuery()).toMatchObject({ page: 1, code: "SPR" });
    expect(store.$promoSearch.get()).toBe("SPR");
  });

  test("a failed list keeps its status; a retry asks again", async () => {
    calls.list.mockReturnValueOnce(refusal(403));
    await store.searchPromos();
    expect(store.$promoList.get()).toEqual({ state: "failed", status: 403 });
    calls.list.mockReturnValueOnce(answer(promos("SPRING")));
    await store.retryPromoList();
    expect(store.$promoList.get()).toEqual({ state: "ready", data: promos("SPRING") });
  });
});
