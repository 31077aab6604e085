import { afterEach, describe, expect, test, vi } from "vitest";
import { answer, endpoints, panelPage, panelStorage, pathParams, refusedWith } from "../../helpers/store-api";

// The network is replaced: these tests are about what the Staff screen's store does with each answer.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  list: (api) => api.panel.operators.get,
  create: (api) => api.panel.operators.post,
  role: (api) => api.panel.operators({ id: 0 }).role.post,
  disable: (api) => api.panel.operators({ id: 0 }).disable.post,
  enable: (api) => api.panel.operators({ id: 0 }).enable.post,
  resetPassword: (api) => api.panel.operators({ id: 0 }).resetPassword.post,
});
const stored = panelStorage();

const { store, toasts } = panelPage(stored, {
  store: () => import("../../../src/stores/panel-staff"),
  toasts: () => import("../../../src/lib/toast/toast-store"),
});
afterEach(() => vi.clearAllMocks());

type Role = "admin" | "support";
const member = (id: number, username: string, role: Role = "support", isDisabled = false) => ({
  id,
  username,
  role,
  isDisabled,
  createdAt: "2027-01-01T00:00:00.000Z",
  updatedAt: "2027-01-01T00:00:00.000Z",
});
const lastToast = () => toasts.$toasts.get().at(-1);
const names = () => store.$members.get()?.map((item) => item.username);

async function openWith(...members: ReturnType<typeof member>[]) {
  calls.list.mockReturnValueOnce(answer({ operators: members }));
  await store.openStaff();
}

describe("the Staff screen's store", () => {
  test("the operators are shown in the server's order: name in any case, then id", async () => {
    await openWith(member(3, "zed"), member(1, "Bob"), member(2, "admin", "admin"), member(4, "bob"));
    expect(calls.list).toHaveBeenCalledWith({ headers: { authorization: "Bearer operator.token" } });
    expect(store.$staffRead.get()).toMatchObject({ state: "ready" });
    expect(names()).toEqual(["admin", "Bob", "bob", "zed"]);
  });

  test("a failed read says how; a retry asks again", async () => {
    calls.list.mockReturnValueOnce(refusedWith(403));
    await store.openStaff();
    expect(store.$staffRead.get()).toEqual({ state: "failed", status: 403 });
    expect(store.$members.get()).toBeUndefined();
    calls.list.mockReturnValueOnce(answer({ operators: [member(1, "admin", "admin")] }));
    await store.retryStaff();
    expect(names()).toEqual(["admin"]);
  });

  test("a created operator joins the list in order, and a made password is shown once", async () => {
    await openWith(member(1, "admin", "admin"), member(2, "zed"));
    let finish: (value: unknown) => void = () => undefined;
    calls.create.mockReturnValueOnce(new Promise((resolve) => (finish = resolve)));
    const creating = store.createOperator({ username: "  mia ", role: "support", password: "" });
    expect(store.$staffCreation.get()).toEqual({ isBusy: true });
    finish({ data: { operator: member(5, "mia"), password: "made-by-server" }, error: null });
    expect(await creating).toBe(true);
    expect(calls.create).toHaveBeenCalledWith(
      { username: "mia", role: "support" },
      { headers: { authorization: "Bearer operator.token" } },
    );
    expect(store.$staffCreation.get()).toEqual({ isBusy: false });
    expect(names()).toEqual(["admin", "mia", "zed"]);
    expect(store.$revealedPassword.get()).toEqual({ username: "mia", password: "made-by-server" });
    expect(lastToast()).toMatchObject({ type: "success", content: "panel.staffCreated" });
    store.dismissPassword();
    expect(store.$revealedPassword.get()).toBeUndefined();
  });

  test("an operator created with a chosen password sends it, and nothing is shown", async () => {
    await openWith(member(1, "admin", "admin"));
    calls.create.mockReturnValueOnce(answer({ operator: member(6, "lea", "admin"), password: null }));
    await store.createOperator({ username: "lea", role: "admin", password: "a long chosen password" });
    expect(calls.create.mock.lastCall?.[0]).toEqual({
      username: "lea",
      role: "admin",
      password: "a long chosen password",
    });
    expect(store.$revealedPassword.get()).toBeUndefined();
  });

  test("a refused creation keeps the list, with the status and the server's words", async () => {
    await openWith(member(1, "admin", "admin"));
    calls.create.mockReturnValueOnce(refusedWith(409, "This username is taken."));
    expect(await store.createOperator({ username: "admin", role: "support", password: "" })).toBe(false);
    expect(store.$staffCreation.get()).toEqual({
      isBusy: false,
      refusal: { status: 409, detail: "This username is taken." },
    });
    expect(names()).toEqual(["admin"]);
    calls.create.mockReturnValueOnce(Promise.reject(new TypeError("Failed to fetch")));
    await store.createOperator({ username: "new", role: "support", password: "" });
    expect(store.$staffCreation.get()).toEqual({ isBusy: false, refusal: { status: undefined } });
  });

  test("a role change shows the operator as the server answers and says so in the operator's words", async () => {
    await openWith(member(1, "admin", "admin"), member(2, "mia"));
    calls.role.mockReturnValueOnce(answer({ operator: member(2, "mia", "admin") }));
    await store.changeRole(member(2, "mia"), "admin");
    expect(pathParams((api) => api.panel.operators)).toEqual([{ id: 2 }]);
    expect(calls.role).toHaveBeenCalledWith(
      { role: "admin" },
      { headers: { authorization: "Bearer operator.token" } },
    );
    expect(store.$members.get()?.find((item) => item.id === 2)?.role).toBe("admin");
    expect(store.$memberChanges.get()["2"]).toEqual({ isBusy: false });
    expect(lastToast()).toMatchObject({ type: "success", content: "panel.staffRoleChanged" });
  });

  test("a refused change stays beside that operator only, and the list is unchanged", async () => {
    await openWith(member(1, "admin", "admin"), member(2, "mia"));
    calls.disable.mockReturnValueOnce(refusedWith(409, "The last administrator stays one."));
    await store.setOperatorDisabled(member(1, "admin", "admin"), true);
    expect(store.$memberChanges.get()).toEqual({
      "1": { isBusy: false, refusal: { status: 409, detail: "The last administrator stays one." } },
    });
    expect(store.$members.get()?.every((item) => !item.isDisabled)).toBe(true);
    expect(toasts.$toasts.get()).toEqual([]);
  });

  test("disabling and enabling show the new state and say so", async () => {
    await openWith(member(2, "mia"));
    calls.disable.mockReturnValueOnce(answer({ operator: member(2, "mia", "support", true) }));
    await store.setOperatorDisabled(member(2, "mia"), true);
    expect(store.$members.get()?.[0]?.isDisabled).toBe(true);
    expect(lastToast()).toMatchObject({ content: "panel.staffDisabledDone" });
    calls.enable.mockReturnValueOnce(answer({ operator: member(2, "mia") }));
    await store.setOperatorDisabled(member(2, "mia", "support", true), false);
    expect(store.$members.get()?.[0]?.isDisabled).toBe(false);
    expect(lastToast()).toMatchObject({ content: "panel.staffEnabledDone" });
  });

  test("a reset password is shown once, for that operator", async () => {
    await openWith(member(2, "mia"));
    calls.resetPassword.mockReturnValueOnce(answer({ operator: member(2, "mia"), password: "fresh-one" }));
    await store.resetOperatorPassword(member(2, "mia"));
    expect(store.$revealedPassword.get()).toEqual({ username: "mia", password: "fresh-one" });
  });
});
