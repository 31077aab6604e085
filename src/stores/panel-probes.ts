import { atom, map } from "nanostores";
import { type ApiData, api } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { showToast } from "../lib/toast/toast-store";
import { type ChangeCall, type ChangeState, idle, tracked } from "./panel-change";
import type { RevealedKey } from "./panel-nodes";
import { panelQuery } from "./panel-query";
import { panelCall } from "./panel-session";

export type Probe = ApiData<typeof api.panel.probes.get>["probes"][number];

/** The server's order: names compared in lower case, then by id (as the Nodes list). */
function byProbeName(a: Probe, b: Probe): number {
  const [left, right] = [a.name.toLowerCase(), b.name.toLowerCase()];
  return left < right ? -1 : left > right ? 1 : a.id - b.id;
}

/** The probe agents on screen: as last read, then as each change leaves them. */
export const $probes = atom<Probe[] | undefined>();
/** A probe key the server made, shown once: never stored, gone when dismissed or the page is left. */
export const $revealedProbeKey = atom<RevealedKey | undefined>();
export const $probeCreation = atom<ChangeState>(idle);
/** Each probe's change under way or last refused, by id. */
export const $probeChanges = map<Record<string, ChangeState | undefined>>({});

const probes = panelQuery("probes", () => panelCall((headers) => api.panel.probes.get({ headers })), {
  onReady: (data) => $probes.set([...data.probes].sort(byProbeName)),
});

export const $probesRead = probes.$loaded;
export const openProbes = () => probes.ask("probes");
export const refreshProbes = probes.retry;
export const dismissProbeKey = () => $revealedProbeKey.set(undefined);

const showProbe = (probe: Probe) =>
  $probes.set([...($probes.get() ?? []).filter((item) => item.id !== probe.id), probe].sort(byProbeName));

/** Adds a probe agent; true when added (the form then empties). Its key is shown once. */
export async function createProbe(name: string): Promise<boolean> {
  const created = await tracked(
    (state) => $probeCreation.set(state),
    (headers) => api.panel.probes.post({ name: name.trim() }, { headers }),
  );
  if (!created) return false;
  showToast(translate("panel.probesCreated", { name: created.probe.name }), "success");
  showProbe(created.probe);
  $revealedProbeKey.set({ name: created.probe.name, key: created.key });
  return true;
}

async function change<D extends { probe: Probe }>(
  probe: Probe,
  call: ChangeCall<D>,
  done: (data: D) => void,
): Promise<void> {
  const changed = await tracked((state) => $probeChanges.setKey(String(probe.id), state), call);
  if (!changed) return;
  showProbe(changed.probe);
  done(changed);
}

const probePath = (probe: Probe) => api.panel.probes({ id: probe.id });

/** A new key for the probe, shown once; the old one stops at once (the server's rule). */
export const rotateProbeKey = (probe: Probe) =>
  change(
    probe,
    (headers) => probePath(probe).rotateKey.post({}, { headers }),
    ({ probe: changed, key }) => {
      showToast(translate("panel.probesRotated", { name: changed.name }), "success");
      $revealedProbeKey.set({ name: changed.name, key });
    },
  );

export const setProbeDisabled = (probe: Probe, isDisabled: boolean) =>
  change(
    probe,
    (headers) =>
      isDisabled
        ? probePath(probe).disable.post({}, { headers })
        : probePath(probe).enable.post({}, { headers }),
    ({ probe: changed }) =>
      showToast(
        translate(isDisabled ? "panel.probesDisabledDone" : "panel.probesEnabledDone", {
          name: changed.name,
        }),
        "success",
      ),
  );
