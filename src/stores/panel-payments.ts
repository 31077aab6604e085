import { atom, computed } from "nanostores";
import { type ApiData, api } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { showToast } from "../lib/toast/toast-store";
import { type ChangeState, idle, tracked } from "./panel-change";
import { panelQuery } from "./panel-query";
import { panelCall } from "./panel-session";

type RoutesAnswer = ApiData<typeof api.panel.payments.routes.get>;
/** One provider and method, on or off, and whether its provider's shop is set up here. */
export type PaymentRoute = RoutesAnswer["routes"][number];
/** How a provider has been answering this server in the last 5 minutes. */
export type ProviderHealth = RoutesAnswer["providers"][number];

const keyOf = (route: Pick<PaymentRoute, "provider" | "method">) => `${route.provider}/${route.method}`;

/** The routes as the server last answered them: what Reset goes back to. */
export const $savedRoutes = atom<readonly PaymentRoute[] | undefined>();
/** The routes on screen, first choice first: the saved ones with the operator's changes not yet saved. */
export const $routesDraft = atom<readonly PaymentRoute[] | undefined>();
export const $providerHealth = atom<readonly ProviderHealth[]>([]);
export const $routesSave = atom<ChangeState>(idle);

/** Whether the screen differs from what was saved: order or a switch. */
export const $hasRouteChanges = computed([$savedRoutes, $routesDraft], (saved, draft) => {
  if (!saved || !draft) return false;
  return draft.some((route, index) => {
    const before = saved[index];
    return !before || keyOf(before) !== keyOf(route) || before.enabled !== route.enabled;
  });
});

/** The server's answer on screen: saved and draft alike, and the providers' health. */
function showAnswer(data: RoutesAnswer): void {
  $savedRoutes.set(data.routes);
  $routesDraft.set(data.routes);
  $providerHealth.set(data.providers);
}

const routes = panelQuery(
  "routes",
  () => panelCall((headers) => api.panel.payments.routes.get({ headers })),
  { onReady: showAnswer },
);

export const $routesRead = routes.$loaded;
export const openPaymentRoutes = () => routes.ask("routes");
export const retryPaymentRoutes = routes.retry;

/**
 * Moves a route one place up (-1) or down (1) on screen; nothing is sent until Save. At
 * either end it stays (the buttons stay focusable there, so the keyboard does not lose its place).
 */
export function moveRoute(route: PaymentRoute, by: -1 | 1): void {
  const draft = [...($routesDraft.get() ?? [])];
  const from = draft.findIndex((item) => keyOf(item) === keyOf(route));
  const to = from + by;
  const moved = draft[from];
  const other = draft[to];
  if (from < 0 || !moved || !other) return;
  draft[to] = moved;
  draft[from] = other;
  $routesDraft.set(draft);
}

/** Switches a route on or off on screen; a provider whose shop is not set up stays off. */
export function setRouteEnabled(route: PaymentRoute, isEnabled: boolean): void {
  const draft = $routesDraft.get();
  if (!draft || (isEnabled && !route.configured)) return;
  $routesDraft.set(
    draft.map((item) => (keyOf(item) === keyOf(route) ? { ...item, enabled: isEnabled } : item)),
  );
}

/** Drops the changes not yet saved, and the last refusal with them. */
export function resetRoutes(): void {
  $routesDraft.set($savedRoutes.get());
  $routesSave.set(idle);
}

/**
 * Saves the routes on screen, in their order. The server answers them as it now keeps them,
 * which the screen then shows; a refusal keeps the operator's changes on screen to fix or reset.
 */
export async function saveRoutes(): Promise<boolean> {
  const draft = $routesDraft.get();
  if (!draft || $routesSave.get().isBusy) return false;
  const saved = await tracked(
    (state) => $routesSave.set(state),
    (headers) =>
      api.panel.payments.routes.put(
        { routes: draft.map(({ provider, method, enabled }) => ({ provider, method, enabled })) },
        { headers },
      ),
  );
  if (!saved) return false;
  showAnswer(saved);
  showToast(translate("panel.paymentsSaved"), "success");
  return true;
}
