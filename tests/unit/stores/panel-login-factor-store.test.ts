import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, endpoints, networkFailure, panelStorage, pending, refusal } from "../../helpers/store-api";

// The network, the browser's passkey prompt and the address bar are replaced: these tests are
// about what the sign-in's second step does with each answer.
const device = vi.hoisted(() => ({ askForPasskey: vi.fn() }));
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
vi.mock("../../../src/lib/passkeys", () => device);
const calls = endpoints({
  options: (api) => api.auth.passkey.options.post,
  passkey: (api) => api.auth.passkey.post,
  code: (api) => api.auth["second-factor"].post,
});
const stored = panelStorage();
const assign = vi.fn();
vi.stubGlobal("location", { assign });

let login: typeof import("../../../src/stores/panel-login");
let store: typeof import("../../../src/stores/panel-login-factor");
beforeEach(async () => {
  vi.resetModules();
  stored.clear();
  login = await import("../../../src/stores/panel-login");
  store = await import("../../../src/stores/panel-login-factor");
});
afterEach(() => vi.clearAllMocks());

const tokens = { accessToken: "new.access.token", refreshToken: "new-refresh" };
const challenge = { challengeId: "challenge-1", options: { challenge: "abc" } };
const credential = { id: "credential-1", response: {} };

function atSecondStep() {
  login.$secondStep.set({
    ticket: "ticket-1",
    methods: ["passkey", "totp", "recovery"],
    deadline: Date.now() + 60_000,
  });
  login.$loginStage.set("second-factor");
}

describe("the sign-in's second step", () => {
  test("the app's code is sent with the ticket, spaces dropped, and signs in", async () => {
    atSecondStep();
    const { promise, finish } = pending();
    calls.code.mockReturnValueOnce(promise);
    const checking = store.signInWithCode("totp", " 123 456 ");
    expect(store.$factorCheck.get()).toBe("code");
    // A second press while the first is under way sends nothing.
    await store.signInWithCode("totp", "123456");
    finish(await answer(tokens));
    await checking;
    expect(calls.code).toHaveBeenCalledTimes(1);
    expect(calls.code).toHaveBeenCalledWith({ ticket: "ticket-1", kind: "totp", code: "123456" });
    expect(stored.get("accessToken")).toBe("new.access.token");
    expect(assign).toHaveBeenCalledWith("/panel-search");
    // Busy until the panel opens: nothing can be pressed again meanwhile.
    expect(store.$factorCheck.get()).toBe("code");
  });

  test("a recovery code is sent as typed; a refused one shows the server's words and keeps the step", async () => {
    atSecondStep();
    calls.code.mockReturnValueOnce(
      refusal(401, "wrong_second_factor_code", "The code is wrong or has already been used."),
    );
    await store.signInWithCode("recovery", " abcd-efgh ");
    expect(calls.code).toHaveBeenCalledWith({ ticket: "ticket-1", kind: "recovery", code: "abcd-efgh" });
    expect(login.$loginError.get()).toBe("The code is wrong or has already been used.");
    expect(login.$loginStage.get()).toBe("second-factor");
    expect(store.$factorCheck.get()).toBeUndefined();
    expect(assign).not.toHaveBeenCalled();
  });

  test("an empty code is not sent", async () => {
    atSecondStep();
    await store.signInWithCode("totp", "  ");
    expect(login.$loginError.get()).toBe("panel.factorCodeMissing");
    await store.signInWithCode("recovery", "");
    expect(login.$loginError.get()).toBe("panel.factorRecoveryMissing");
    expect(calls.code).not.toHaveBeenCalled();
  });

  test("an ended ticket goes back to the password form, saying why", async () => {
    atSecondStep();
    calls.code.mockReturnValueOnce(
      refusal(401, "second_factor_ticket_invalid", "This sign-in step has expired."),
    );
    await store.signInWithCode("totp", "123456");
    expect(login.$loginStage.get()).toBe("form");
    expect(login.$secondStep.get()).toBeUndefined();
    expect(login.$loginError.get()).toBe("panel.factorTicketExpired");
  });

  test("a dropped connection says so", async () => {
    atSecondStep();
    calls.code.mockReturnValueOnce(networkFailure());
    await store.signInWithCode("totp", "123456");
    expect(login.$loginError.get()).toBe("panel.connectionFailed");
  });

  test("a passkey answers the ticket's challenge and signs in", async () => {
    atSecondStep();
    calls.options.mockReturnValueOnce(answer(challenge));
    device.askForPasskey.mockResolvedValueOnce({ response: credential });
    calls.passkey.mockReturnValueOnce(answer(tokens));
    await store.signInWithPasskey();
    expect(calls.options).toHaveBeenCalledWith({ ticket: "ticket-1" });
    expect(device.askForPasskey).toHaveBeenCalledWith(challenge.options);
    expect(calls.passkey).toHaveBeenCalledWith({ challengeId: "challenge-1", credential });
    expect(assign).toHaveBeenCalledWith("/panel-search");
  });

  test("a passkey alone from the first form asks without a ticket", async () => {
    calls.options.mockReturnValueOnce(answer(challenge));
    device.askForPasskey.mockResolvedValueOnce({ response: credential });
    calls.passkey.mockReturnValueOnce(answer(tokens));
    await store.signInWithPasskey();
    expect(calls.options).toHaveBeenCalledWith({});
    expect(stored.get("refreshToken")).toBe("new-refresh");
  });

  test("a prompt closed on the device says the passkey was not used, and nothing is sent", async () => {
    atSecondStep();
    calls.options.mockReturnValueOnce(answer(challenge));
    device.askForPasskey.mockResolvedValueOnce({ problem: "cancelled" });
    await store.signInWithPasskey();
    expect(login.$loginError.get()).toBe("panel.passkeyCancelled");
    expect(calls.passkey).not.toHaveBeenCalled();
    expect(store.$factorCheck.get()).toBeUndefined();
  });

  test("a passkey the server does not accept shows its words", async () => {
    calls.options.mockReturnValueOnce(answer(challenge));
    device.askForPasskey.mockResolvedValueOnce({ response: credential });
    calls.passkey.mockReturnValueOnce(refusal(401, "passkey_unknown", "This passkey is not registered."));
    await store.signInWithPasskey();
    expect(login.$loginError.get()).toBe("This passkey is not registered.");
    expect(assign).not.toHaveBeenCalled();
  });
});
