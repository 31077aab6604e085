import { afterEach, describe, expect, test, vi } from "vitest";
import {
  answer,
  endpoints,
  panelPage,
  panelStorage,
  pathParams,
  pending,
  refusal,
} from "../../helpers/store-api";

// The network and the browser's passkey prompts are replaced: these tests are about what the
// Security screen's store and its fresh check do with each answer.
const device = vi.hoisted(() => ({ askForPasskey: vi.fn(), createPasskey: vi.fn() }));
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
vi.mock("../../../src/lib/passkeys", () => device);
const calls = endpoints({
  read: (api) => api.panel.security.get,
  confirm: (api) => api.panel.security.confirm.post,
  confirmOptions: (api) => api.panel.security.confirm.options.post,
  addOptions: (api) => api.panel.security.passkeys.options.post,
  add: (api) => api.panel.security.passkeys.post,
  remove: (api) => api.panel.security.passkeys({ id: 0 }).delete,
  totpStart: (api) => api.panel.security.totp.start.post,
  totp: (api) => api.panel.security.totp.post,
  totpRemove: (api) => api.panel.security.totp.delete,
  codes: (api) => api.panel.security["recovery-codes"].post,
});
const stored = panelStorage();

type Security = import("../../../src/stores/panel-security").Security;

const { store, check, toasts } = panelPage(stored, {
  store: () => import("../../../src/stores/panel-security"),
  check: () => import("../../../src/stores/panel-fresh-check"),
  toasts: () => import("../../../src/lib/toast/toast-store"),
});
afterEach(() => vi.clearAllMocks());

const headers = { headers: { authorization: "Bearer operator.token" } };
const passkey = { id: 7, name: "Laptop", createdAt: 1_800_000_000_000, lastUsedAt: null };
const nothing: Security = {
  passkeys: [],
  totp: null,
  recoveryCodesLeft: 0,
  isRequired: true,
  freshUntil: null,
};
const withPasskey: Security = { ...nothing, passkeys: [passkey], recoveryCodesLeft: 10 };
const codes = Array.from({ length: 10 }, (_, index) => `code-${index}`);
const freshCheckRequired = () => refusal(403, "fresh_check_required", "Confirm it is you.");
const lastToast = () => toasts.$toasts.get().at(-1)?.content;

async function openWith(security: Security) {
  calls.read.mockReturnValueOnce(answer(security));
  await store.openSecurity();
}

describe("the Security screen's store", () => {
  test("an operator who must enrol and has no factor is remembered as enrolling", async () => {
    await openWith(nothing);
    expect(calls.read).toHaveBeenCalledWith(headers);
    expect(store.$securityRead.get()).toMatchObject({ state: "ready" });
    expect(store.$wasEnrolling.get()).toBe(true);
    expect(store.hasFactor(nothing)).toBe(false);
    expect(store.hasFactor(withPasskey)).toBe(true);
  });

  test("a passkey is made by the device from the server's options, named, and its first codes shown once", async () => {
    await openWith(nothing);
    calls.addOptions.mockReturnValueOnce(answer({ challengeId: "c-1", options: { challenge: "x" } }));
    device.createPasskey.mockResolvedValueOnce({ response: { id: "credential" } });
    calls.add.mockReturnValueOnce(answer({ passkey, recoveryCodes: codes }));
    calls.read.mockReturnValueOnce(answer(withPasskey));
    expect(await store.addPasskey("  Laptop ")).toBe(true);
    expect(device.createPasskey).toHaveBeenCalledWith({ challenge: "x" });
    expect(calls.add).toHaveBeenCalledWith(
      { challengeId: "c-1", name: "Laptop", credential: { id: "credential" } },
      headers,
    );
    expect(store.$recoveryCodes.get()).toEqual(codes);
    expect(store.$security.get()).toEqual(withPasskey);
    expect(store.$changes.get()["passkey-add"]).toBeUndefined();
    expect(lastToast()).toBe("panel.passkeyAdded");
    // Still the operator who came to enrol: the way on to the panel is offered.
    expect(store.$wasEnrolling.get()).toBe(true);
    store.dismissRecoveryCodes();
    expect(store.$recoveryCodes.get()).toBeUndefined();
  });

  test("a name too long or empty is refused before the device is asked", async () => {
    await openWith(nothing);
    expect(await store.addPasskey("   ")).toBe(false);
    expect(await store.addPasskey("x".repeat(65))).toBe(false);
    expect(store.$changes.get()["passkey-add"]).toEqual({ isBusy: false, error: "panel.passkeyNameInvalid" });
    expect(calls.addOptions).not.toHaveBeenCalled();
  });

  test("a device that gives no passkey says why, and nothing is sent", async () => {
    await openWith(nothing);
    calls.addOptions.mockReturnValueOnce(answer({ challengeId: "c-1", options: {} }));
    device.createPasskey.mockResolvedValueOnce({ problem: "cancelled" });
    expect(await store.addPasskey("Laptop")).toBe(false);
    expect(store.$changes.get()["passkey-add"]).toEqual({ isBusy: false, error: "panel.passkeyCancelled" });
    expect(calls.add).not.toHaveBeenCalled();
  });

  test("a fresh check asked for opens the dialog; once the password is accepted the change runs again", async () => {
    await openWith(withPasskey);
    calls.remove.mockReturnValueOnce(freshCheckRequired()).mockReturnValueOnce(answer({ success: true }));
    calls.read.mockReturnValueOnce(answer({ ...withPasskey, passkeys: [] }));
    const removing = store.removePasskey(passkey);
    await vi.waitFor(() => expect(check.$freshCheck.get()).toEqual({}));
    // Busy while the dialog waits: the button cannot send it again.
    expect(store.$changes.get()["passkey-remove:7"]).toEqual({ isBusy: true });
    expect(await store.removePasskey(passkey)).toBe(false);

    calls.confirm.mockReturnValueOnce(refusal(401, "wrong_password", "Wrong password."));
    await check.confirmWithPassword("wrong");
    expect(check.$freshCheck.get()).toEqual({ error: "Wrong password." });
    calls.confirm.mockReturnValueOnce(answer({ freshUntil: 1 }));
    await check.confirmWithPassword("right");
    expect(calls.confirm).toHaveBeenLastCalledWith({ password: "right" }, headers);
    expect(check.$freshCheck.get()).toBeUndefined();

    expect(await removing).toBe(true);
    expect(calls.remove).toHaveBeenCalledTimes(2);
    expect(pathParams((api) => api.panel.security.passkeys)).toEqual([{ id: 7 }, { id: 7 }]);
    expect(store.$security.get()?.passkeys).toEqual([]);
    expect(lastToast()).toBe("panel.passkeyRemoved");
  });

  test("a fresh check by passkey or by the app's code", async () => {
    await openWith({ ...withPasskey, totp: { enabledAt: 1 } });
    calls.codes
      .mockReturnValueOnce(freshCheckRequired())
      .mockReturnValueOnce(answer({ recoveryCodes: codes }));
    calls.read.mockReturnValue(answer(withPasskey));
    const renewing = store.newRecoveryCodes();
    await vi.waitFor(() => expect(check.$freshCheck.get()).toEqual({}));
    calls.confirmOptions.mockReturnValueOnce(answer({ challengeId: "c-2", options: { challenge: "y" } }));
    device.askForPasskey.mockResolvedValueOnce({ problem: "cancelled" });
    await check.confirmWithPasskey();
    expect(check.$freshCheck.get()).toEqual({ error: "panel.passkeyCancelled" });
    expect(calls.confirm).not.toHaveBeenCalled();
    await check.confirmWithCode("");
    expect(check.$freshCheck.get()).toEqual({ error: "panel.factorCodeMissing" });
    calls.confirm.mockReturnValueOnce(answer({ freshUntil: 1 }));
    await check.confirmWithCode("123 456");
    expect(calls.confirm).toHaveBeenCalledWith({ kind: "totp", code: "123456" }, headers);
    expect(await renewing).toBe(true);
    expect(store.$recoveryCodes.get()).toEqual(codes);
  });

  test("closing the dialog leaves the change undone, saying so", async () => {
    await openWith(withPasskey);
    calls.totpRemove.mockReturnValueOnce(freshCheckRequired());
    const removing = store.removeTotp();
    await vi.waitFor(() => expect(check.$freshCheck.get()).toEqual({}));
    check.cancelFreshCheck();
    expect(await removing).toBe(false);
    expect(store.$changes.get()["totp-remove"]).toEqual({
      isBusy: false,
      error: "panel.freshCheckCancelled",
    });
    expect(calls.totpRemove).toHaveBeenCalledTimes(1);
  });

  test("a refusal shows the server's words in the change's place", async () => {
    await openWith(withPasskey);
    calls.remove.mockReturnValueOnce(
      refusal(409, "last_second_factor", "This is your last second factor, and your account must have one."),
    );
    expect(await store.removePasskey(passkey)).toBe(false);
    expect(store.$changes.get()["passkey-remove:7"]).toEqual({
      isBusy: false,
      error: "This is your last second factor, and your account must have one.",
    });
    expect(check.$freshCheck.get()).toBeUndefined();
  });

  test("the app is set up from its secret and turned on by a code, answering its recovery codes", async () => {
    await openWith(nothing);
    const setup = { secret: "JBSWY3DPEHPK3PXP", uri: "otpauth://totp/x", qrSvg: "<svg/>" };
    calls.totpStart.mockReturnValueOnce(answer(setup));
    await store.startTotp();
    expect(store.$totpSetup.get()).toEqual(setup);
    expect(await store.confirmTotp("12345")).toBe(false);
    expect(store.$changes.get()["totp-confirm"]).toEqual({ isBusy: false, error: "panel.factorCodeMissing" });
    const { promise, finish } = pending();
    calls.totp.mockReturnValueOnce(promise);
    calls.read.mockReturnValueOnce(answer({ ...nothing, totp: { enabledAt: 1 }, recoveryCodesLeft: 10 }));
    const confirming = store.confirmTotp("123 456");
    expect(store.$changes.get()["totp-confirm"]).toEqual({ isBusy: true });
    finish(await answer({ recoveryCodes: codes }));
    expect(await confirming).toBe(true);
    expect(calls.totp).toHaveBeenCalledWith({ code: "123456" }, headers);
    expect(store.$totpSetup.get()).toBeUndefined();
    expect(store.$recoveryCodes.get()).toEqual(codes);
    expect(store.$security.get()?.totp).toEqual({ enabledAt: 1 });
  });
});
