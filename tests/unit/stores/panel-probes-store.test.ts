import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";

// The network is replaced: these tests are about what the Probes section's store does with each answer.
const calls = vi.hoisted(() => ({
  list: vi.fn(),
  create: vi.fn(),
  rotateKey: vi.fn(),
  disable: vi.fn(),
  enable: vi.fn(),
  probeIds: [] as number[],
}));
vi.mock("../../../src/lib/api-client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../../src/lib/api-client")>()),
  api: {
    panel: {
      probes: Object.assign(
        ({ id }: { id: number }) => {
          calls.probeIds.push(id);
          return {
            rotateKey: { post: calls.rotateKey },
            disable: { post: calls.disable },
            enable: { post: calls.enable },
          };
        },
        { get: calls.list, post: calls.create },
      ),
    },
  },
}));
const stored = new Map<string, string>();
vi.stubGlobal("localStorage", {
  getItem: (key: string) => stored.get(key) ?? null,
  setItem: (key: string, value: string) => stored.set(key, value),
  removeItem: (key: string) => stored.delete(key),
});

let store: typeof import("../../../src/stores/panel-probes");
let toasts: typeof import("../../../src/lib/toast/toast-store");
beforeEach(async () => {
  vi.resetModules();
  stored.clear();
  stored.set("accessToken", "operator.token");
  calls.probeIds.length = 0;
  store = await import("../../../src/stores/panel-probes");
  toasts = await import("../../../src/lib/toast/toast-store");
});
afterEach(() => vi.clearAllMocks());

type Probe = import("../../../src/stores/panel-probes").Probe;
const probe = (id: number, name: string, changes: Partial<Probe> = {}) =>
  ({ id, name, reporting: false, lastSeenAt: null, disabled: false, ...changes }) as Probe;
const answer = (data: unknown) => Promise.resolve({ data, error: null });
const refusal = (status: number, code: string, message: string) =>
  Promise.resolve({ data: null, error: { status, value: { success: false, error: { code, message } } } });
const lastToast = () => toasts.$toasts.get().at(-1);
const names = () => store.$probes.get()?.map((item) => item.name);

async function openWith(...probes: Probe[]) {
  calls.list.mockReturnValueOnce(answer({ probes }));
  await store.openProbes();
}

describe("the Probes section's store", () => {
  test("probes are listed by name in any case, then id", async () => {
    await openWith(probe(2, "ru-msk-mobile"), probe(1, "RU-mow-vps"), probe(3, "kz-ala-1"));
    expect(calls.list).toHaveBeenCalledWith({ headers: { authorization: "Bearer operator.token" } });
    expect(names()).toEqual(["kz-ala-1", "RU-mow-vps", "ru-msk-mobile"]);
  });

  test("an added probe joins the list and its key is shown once, until dismissed", async () => {
    await openWith(probe(1, "ru-msk-mobile"));
    calls.create.mockReturnValueOnce(
      answer({ success: true, probe: probe(4, "kz-ala-1"), key: "probe_once" }),
    );
    expect(await store.createProbe("  kz-ala-1 ")).toBe(true);
    expect(calls.create.mock.calls[0]?.[0]).toEqual({ name: "kz-ala-1" });
    expect(names()).toEqual(["kz-ala-1", "ru-msk-mobile"]);
    expect(store.$revealedProbeKey.get()).toEqual({ name: "kz-ala-1", key: "probe_once" });
    expect(lastToast()).toMatchObject({ type: "success", content: "panel.probesCreated" });
    store.dismissProbeKey();
    expect(store.$revealedProbeKey.get()).toBeUndefined();
  });

  test("a refused probe keeps the list, shows no key, and keeps the server's words", async () => {
    await openWith(probe(1, "ru-msk-mobile"));
    calls.create.mockReturnValueOnce(
      refusal(409, "probe_name_taken", 'A probe named "ru-msk-mobile" already exists.'),
    );
    expect(await store.createProbe("ru-msk-mobile")).toBe(false);
    expect(store.$probeCreation.get()).toEqual({
      isBusy: false,
      refusal: {
        status: 409,
        code: "probe_name_taken",
        detail: 'A probe named "ru-msk-mobile" already exists.',
      },
    });
    expect(store.$revealedProbeKey.get()).toBeUndefined();
  });

  test("a rotated key is shown once; disabling and enabling show the probe as the server answers", async () => {
    await openWith(probe(1, "ru-msk-mobile"));
    calls.rotateKey.mockReturnValueOnce(
      answer({ success: true, probe: probe(1, "ru-msk-mobile"), key: "second" }),
    );
    await store.rotateProbeKey(probe(1, "ru-msk-mobile"));
    expect(store.$revealedProbeKey.get()).toEqual({ name: "ru-msk-mobile", key: "second" });
    expect(lastToast()).toMatchObject({ content: "panel.probesRotated" });
    calls.disable.mockReturnValueOnce(
      answer({ success: true, probe: probe(1, "ru-msk-mobile", { disabled: true }) }),
    );
    await store.setProbeDisabled(probe(1, "ru-msk-mobile"), true);
    expect(store.$probes.get()?.[0]?.disabled).toBe(true);
    expect(lastToast()).toMatchObject({ content: "panel.probesDisabledDone" });
    calls.enable.mockReturnValueOnce(answer({ success: true, probe: probe(1, "ru-msk-mobile") }));
    await store.setProbeDisabled(probe(1, "ru-msk-mobile", { disabled: true }), false);
    expect(store.$probes.get()?.[0]?.disabled).toBe(false);
    expect(calls.probeIds).toEqual([1, 1, 1]);
  });

  test("a refused change stays beside that probe; a dropped connection has no status", async () => {
    await openWith(probe(1, "kz-ala-1"), probe(2, "ru-msk-mobile"));
    calls.disable.mockReturnValueOnce(refusal(404, "probe_not_found", "There is no probe with this id."));
    await store.setProbeDisabled(probe(2, "ru-msk-mobile"), true);
    calls.rotateKey.mockReturnValueOnce(Promise.reject(new TypeError("Failed to fetch")));
    await store.rotateProbeKey(probe(1, "kz-ala-1"));
    expect(store.$probeChanges.get()).toEqual({
      "1": { isBusy: false, refusal: { status: undefined } },
      "2": {
        isBusy: false,
        refusal: { status: 404, code: "probe_not_found", detail: "There is no probe with this id." },
      },
    });
    expect(store.$revealedProbeKey.get()).toBeUndefined();
  });
});
