import { afterEach, describe, expect, test, vi } from "vitest";
import { answer, endpoints, panelPage, panelStorage, refusal } from "../../helpers/store-api";

// The network is replaced: these tests are about what the customer page's store keeps.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({ user: (api) => api.panel.users.getUserById.post });
const stored = panelStorage();

const { store, session } = panelPage(stored, {
  store: () => import("../../../src/stores/panel-user"),
  session: () => import("../../../src/stores/panel-session"),
});
afterEach(() => vi.clearAllMocks());

const customer = { id: 42, email: "buyer@example.com", uid: "uid-42", subscription: { status: "ACTIVE" } };

describe("the customer page's store", () => {
  test("the customer is asked for by id and shown", async () => {
    calls.user.mockReturnValueOnce(answer(customer));
    const loading = store.loadCustomer(42);
    expect(store.$customer.get()).toEqual({ state: "loading" });
    await loading;
    expect(calls.user).toHaveBeenCalledWith(
      {},
      { headers: { authorization: "Bearer operator.token" }, query: { id: 42 } },
    );
    expect(store.$customer.get()).toEqual({ state: "ready", data: customer });
  });

  test("a loaded customer becomes this browser's choice, uid included, before the page shows them", async () => {
    stored.set("selected_person_uid", "previous-customer-uid");
    let uidWhenShown: string | null | undefined;
    store.$customer.listen((loaded) => {
      if (loaded.state === "ready") uidWhenShown = stored.get("selected_person_uid");
    });
    calls.user.mockReturnValueOnce(answer(customer));
    await store.loadCustomer(42);
    expect(uidWhenShown).toBe("uid-42");
    expect(session.selectedPersonId()).toBe(42);
    expect(stored.get("selected_person_email")).toBe("buyer@example.com");
  });

  test("a customer without a uid leaves no other customer's uid behind", async () => {
    stored.set("selected_person_uid", "previous-customer-uid");
    calls.user.mockReturnValueOnce(answer({ ...customer, uid: undefined }));
    await store.loadCustomer(42);
    expect(stored.has("selected_person_uid")).toBe(false);
  });

  test("an unknown id fails with 404 and changes no choice; a retry asks again", async () => {
    stored.set("selected_person", "7");
    calls.user.mockReturnValueOnce(refusal(404));
    await store.loadCustomer(99);
    expect(store.$customer.get()).toEqual({ state: "failed", status: 404 });
    expect(session.selectedPersonId()).toBe(7);
    calls.user.mockReturnValueOnce(answer({ ...customer, id: 99 }));
    await store.retryCustomer();
    expect(calls.user).toHaveBeenLastCalledWith({}, expect.objectContaining({ query: { id: 99 } }));
    expect(store.$customer.get()).toMatchObject({ state: "ready", data: { id: 99 } });
  });

  test("only an active or cancelled (still paid) subscription is managed from the customer page", () => {
    const withStatus = (status: string) =>
      ({
        ...customer,
        subscription: { status },
      }) as unknown as import("../../../src/stores/panel-user").Customer;
    expect(store.hasRunningSubscription(withStatus("ACTIVE"))).toBe(true);
    expect(store.hasRunningSubscription(withStatus("CANCELED"))).toBe(true);
    expect(store.hasRunningSubscription(withStatus("EXPIRED"))).toBe(false);
    expect(store.hasRunningSubscription(withStatus("NOT_ACTIVE"))).toBe(false);
  });
});
