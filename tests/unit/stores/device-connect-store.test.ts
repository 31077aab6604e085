import { atom, type WritableAtom } from "nanostores";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { endpoints } from "../../helpers/store-api";

// The network and the cabinet's own calls are replaced: these tests are about what the
// Connect panel's store does with each answer.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  connect: (api) => api.profile.devices.connect.post,
  resetLink: (api) => api.profile.devices.resetLink.post,
  confirm: (api) => api.profile.devices.confirm.post,
  release: (api) => api.profile.devices.release.post,
});
const cabinet = vi.hoisted(() => ({ loadCabinet: vi.fn(), addDevice: vi.fn() }));
type ListedDevice = { deviceId: string; pendingUntil: string | null };
type Profile = { availableDevices: number; devices?: ListedDevice[] };
vi.mock("../../../src/stores/cabinet", () => ({
  $profile: atom<Profile | undefined>(),
  loadCabinet: cabinet.loadCabinet,
  addDevice: cabinet.addDevice,
}));

// The mocked cabinet's profile: the free-slot count and the devices' pending state.
const $profile = (await import("../../../src/stores/cabinet")).$profile as unknown as WritableAtom<
  Profile | undefined
>;
const { $identity, $email, $uid } = await import("../../../src/stores/customer");
const { $toasts } = await import("../../../src/lib/toast/toast-store");
const store = await import("../../../src/stores/device-connect");

const link = (deviceId: string, token: string) => ({
  success: true as const,
  deviceId,
  subscriptionUrl: `https://kannt.example/sub/${token}`,
  qrSvg: `<svg>${token}</svg>`,
});
const answer = (data: unknown) => Promise.resolve({ data, error: null });
/** A refusal as the server answers it: its status, and its code and words when it sent them. */
const refusal = (status: number, code?: string, message = "") =>
  Promise.resolve({
    data: null,
    error: { status, value: code ? { success: false, error: { code, message } } : undefined },
  });
const lastToast = () => $toasts.get().at(-1);

beforeEach(() => {
  $email.set("someone@example.com");
  $uid.set("uid-1");
  $toasts.set([]);
  $profile.set(undefined);
});
afterEach(() => vi.clearAllMocks());

describe("the Connect panel's store", () => {
  test("a new device is asked for without a device id, and its link and QR are shown", async () => {
    calls.connect.mockReturnValueOnce(answer(link("cabinet-1", "t1")));
    await store.connectDevice();
    expect(calls.connect).toHaveBeenCalledWith($identity.get());
    expect(store.$connect.get()).toEqual({
      step: "ready",
      deviceId: "cabinet-1",
      subscriptionUrl: "https://kannt.example/sub/t1",
      qrSvg: "<svg>t1</svg>",
    });
  });

  test("a new device asked for while the list shows a pending one is that one, by its id: a second press takes no second slot", async () => {
    $profile.set({
      availableDevices: 0,
      devices: [
        { deviceId: "dev-in-use", pendingUntil: null },
        { deviceId: "cabinet-9", pendingUntil: "2026-12-02T06:00:00.000Z" },
      ],
    });
    calls.connect.mockReturnValueOnce(answer(link("cabinet-9", "t9")));
    await store.connectDevice();
    expect(calls.connect).toHaveBeenCalledWith({ ...$identity.get(), deviceId: "cabinet-9" });
    expect(store.$connect.get()).toMatchObject({ step: "ready", deviceId: "cabinet-9" });
  });

  test("an existing device is asked for by its id", async () => {
    calls.connect.mockReturnValueOnce(answer(link("dev-7", "t7")));
    await store.connectDevice("dev-7");
    expect(calls.connect).toHaveBeenCalledWith({ ...$identity.get(), deviceId: "dev-7" });
    expect(store.$connect.get()).toMatchObject({ step: "ready", deviceId: "dev-7" });
  });

  test("no free slot for a new device shows the server's words and offers a slot", async () => {
    calls.connect.mockReturnValueOnce(refusal(409, "no_free_device_slot", "Все места для устройств заняты."));
    await store.connectDevice();
    expect(store.$connect.get()).toEqual({ step: "no-slot", message: "Все места для устройств заняты." });
  });

  test("the screen follows the refusal's code, not its status", async () => {
    // Also a 409, but no slot would help: its words, and no offer to buy one.
    const noAccess = "Нет активной подписки, к которой можно подключить устройство.";
    calls.connect.mockReturnValueOnce(refusal(409, "device_needs_subscription", noAccess));
    await store.connectDevice();
    expect(store.$connect.get()).toEqual({ step: "failed", message: noAccess });
    // The slot's code under any status still offers the slot.
    calls.connect.mockReturnValueOnce(refusal(400, "no_free_device_slot", "Все места заняты."));
    await store.connectDevice();
    expect(store.$connect.get()).toEqual({ step: "no-slot", message: "Все места заняты." });
    // A 401 without the session's code is no reason to sign in again.
    calls.connect.mockReturnValueOnce(refusal(401, "sign_in_expired", "The sign-in has expired."));
    await store.connectDevice();
    expect(cabinet.loadCabinet).not.toHaveBeenCalled();
    expect(store.$connect.get()).toEqual({ step: "failed", message: "The sign-in has expired." });
  });

  test("any other failure says so in the customer's language and can be retried", async () => {
    calls.connect.mockReturnValueOnce(refusal(500));
    await store.connectDevice("dev-7");
    expect(store.$connect.get()).toEqual({ step: "failed", message: "cabinet.connectFailed" });
    calls.connect.mockReturnValueOnce(Promise.reject(new TypeError("Failed to fetch")));
    await store.connectDevice("dev-7");
    expect(store.$connect.get()).toEqual({ step: "failed", message: "cabinet.connectFailed" });
  });

  test.each(["sign_in_required", "session_ended", "another_account"])(
    "without a session (%s) the cabinet's reload takes the customer to sign in",
    async (code) => {
      calls.connect.mockReturnValueOnce(refusal(code === "another_account" ? 403 : 401, code));
      await store.connectDevice();
      expect(cabinet.loadCabinet).toHaveBeenCalledOnce();
      expect(store.$connect.get()).toEqual({ step: "loading" });
    },
  );

  test("an answer that arrives after the panel closed is dropped", async () => {
    let finish: (value: unknown) => void = () => undefined;
    calls.connect.mockReturnValueOnce(new Promise((resolve) => (finish = resolve)));
    const pending = store.connectDevice();
    await store.closeConnect();
    finish({ data: link("cabinet-2", "late"), error: null });
    await pending;
    expect(store.$connect.get()).toEqual({ step: "loading" });
  });

  test("closing the panel reads the device list again", async () => {
    await store.closeConnect();
    expect(cabinet.loadCabinet).toHaveBeenCalledOnce();
  });

  test("closing the panel with a pending device's link unused gives its slot back, then reads the list", async () => {
    calls.connect.mockReturnValueOnce(answer(link("cabinet-1", "t1")));
    await store.connectDevice();
    $profile.set({
      availableDevices: 0,
      devices: [{ deviceId: "cabinet-1", pendingUntil: "2026-12-01T10:30:00.000Z" }],
    });
    calls.release.mockReturnValueOnce(answer({ success: true, devices: [], availableDevices: 1 }));
    await store.closeConnect();
    expect(calls.release).toHaveBeenCalledWith({ ...$identity.get(), deviceId: "cabinet-1" });
    expect(cabinet.loadCabinet).toHaveBeenCalledTimes(2);
  });

  test("closing the panel of a device in use gives nothing back; a failed release still reads the list", async () => {
    calls.connect.mockReturnValueOnce(answer(link("dev-7", "t7")));
    await store.connectDevice("dev-7");
    $profile.set({ availableDevices: 0, devices: [{ deviceId: "dev-7", pendingUntil: null }] });
    await store.closeConnect();
    expect(calls.release).not.toHaveBeenCalled();
    calls.connect.mockReturnValueOnce(answer(link("cabinet-2", "t2")));
    await store.connectDevice();
    calls.release.mockReturnValueOnce(Promise.reject(new TypeError("Failed to fetch")));
    await store.closeConnect();
    expect(calls.release).toHaveBeenCalledOnce();
    expect(cabinet.loadCabinet).toHaveBeenCalledTimes(4);
  });

  test("'I've added it' takes the slot: the list takes the answer and a toast says so", async () => {
    $profile.set({ availableDevices: 0, devices: [{ deviceId: "cabinet-1", pendingUntil: "2026-12-01" }] });
    let finish: (value: unknown) => void = () => undefined;
    calls.confirm.mockReturnValueOnce(new Promise((resolve) => (finish = resolve)));
    const saving = store.confirmAdded("cabinet-1");
    expect(store.$confirming.get()).toBe("saving");
    finish({
      data: { success: true, devices: [{ deviceId: "cabinet-1", pendingUntil: null }], availableDevices: 0 },
      error: null,
    });
    await saving;
    expect(calls.confirm).toHaveBeenCalledWith({ ...$identity.get(), deviceId: "cabinet-1" });
    expect(store.$confirming.get()).toBe("idle");
    expect($profile.get()?.devices).toEqual([{ deviceId: "cabinet-1", pendingUntil: null }]);
    expect(lastToast()).toMatchObject({ type: "success", content: "cabinet.connectConfirmed" });
  });

  test("'I've added it' refused says the server's words, or that it failed", async () => {
    calls.confirm.mockReturnValueOnce(refusal(409, "no_free_device_slot", "Все места заняты."));
    await store.confirmAdded("cabinet-1");
    expect(lastToast()).toMatchObject({ type: "error", content: "Все места заняты." });
    calls.confirm.mockReturnValueOnce(refusal(500));
    await store.confirmAdded("cabinet-1");
    expect(lastToast()).toMatchObject({ type: "error", content: "cabinet.connectConfirmFailed" });
    expect(store.$confirming.get()).toBe("idle");
  });

  test("a reset shows the new link and says the old one stops working", async () => {
    calls.connect.mockReturnValueOnce(answer(link("dev-7", "old")));
    await store.connectDevice("dev-7");
    calls.resetLink.mockReturnValueOnce(answer(link("dev-7", "new")));
    await store.resetDeviceLink("dev-7");
    expect(calls.resetLink).toHaveBeenCalledWith({ ...$identity.get(), deviceId: "dev-7" });
    expect(store.$connect.get()).toMatchObject({ subscriptionUrl: "https://kannt.example/sub/new" });
    expect(lastToast()).toMatchObject({ type: "success", content: "cabinet.linkReset" });
  });

  test("a failed reset keeps the old link on screen, since it still works", async () => {
    calls.connect.mockReturnValueOnce(answer(link("dev-7", "old")));
    await store.connectDevice("dev-7");
    calls.resetLink.mockReturnValueOnce(refusal(500));
    await store.resetDeviceLink("dev-7");
    expect(store.$connect.get()).toMatchObject({ subscriptionUrl: "https://kannt.example/sub/old" });
    expect(lastToast()).toMatchObject({ type: "error", content: "cabinet.resetLinkFailed" });
    calls.resetLink.mockReturnValueOnce(refusal(404, "device_not_attached", "Это устройство уже отвязано."));
    await store.resetDeviceLink("dev-7");
    expect(lastToast()).toMatchObject({ type: "error", content: "Это устройство уже отвязано." });
  });

  test("buying a slot from the panel connects the new device once the slot is there", async () => {
    cabinet.addDevice.mockImplementationOnce(async () => $profile.set({ availableDevices: 1 }));
    calls.connect.mockReturnValueOnce(answer(link("cabinet-3", "t3")));
    await store.addSlotAndConnect();
    expect(store.$connect.get()).toMatchObject({ step: "ready", deviceId: "cabinet-3" });
  });

  test("a purchase that failed connects nothing (the purchase flow has said why)", async () => {
    cabinet.addDevice.mockResolvedValueOnce(undefined);
    $profile.set({ availableDevices: 0 });
    await store.addSlotAndConnect();
    expect(calls.connect).not.toHaveBeenCalled();
  });

  test("copying the link confirms it, and says so when the browser refuses", async () => {
    const writeText = vi.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error("denied"));
    vi.stubGlobal("navigator", { clipboard: { writeText } });
    await store.copyLink("https://kannt.example/sub/t");
    expect(writeText).toHaveBeenCalledWith("https://kannt.example/sub/t");
    expect(lastToast()).toMatchObject({ type: "success", content: "promo.copied" });
    await store.copyLink("https://kannt.example/sub/t");
    expect(lastToast()).toMatchObject({ type: "error", content: "promo.copyFailed" });
    vi.stubGlobal("navigator", {});
    await store.copyLink("https://kannt.example/sub/t");
    expect(lastToast()).toMatchObject({ type: "error", content: "promo.copyFailed" });
    vi.unstubAllGlobals();
  });
});
