import { afterEach, describe, expect, test, vi } from "vitest";
import { answer, endpoints, panelPage, panelStorage, pathParams, refusal } from "../../helpers/store-api";

// The network is replaced: these tests are about what the Probes section's store does with each answer.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  list: (api) => api.panel.probes.get,
  create: (api) => api.panel.probes.post,
  rotateKey: (api) => api.panel.probes({ id: 0 }).rotateKey.post,
  disable: (api) => api.panel.probes({ id: 0 }).disable.post,
  enable: (api) => api.panel.probes({ id: 0 }).enable.post,
});
const stored = panelStorage();

const { store, toasts } = panelPage(stored, {
  store: () => import("../../../src/stores/panel-probes"),
  toasts: () => import("../../../src/lib/toast/toast-store"),
});
afterEach(() => vi.clearAllMocks());

type Probe = import("../../../src/stores/panel-probes").Probe;
const probe = (id: number, name: string, changes: Partial<Probe> = {}) =>
  ({ id, name, reporting: false, lastSeenAt: null, disabled: false, ...changes }) as Probe;
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
    expect(pathParams((api) => api.panel.probes)).toEqual([{ id: 1 }, { id: 1 }, { id: 1 }]);
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
