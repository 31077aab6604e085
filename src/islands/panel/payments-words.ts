import type { PaymentMethod, PaymentProvider } from "../../../core/payment-methods";
import type { TranslationKey } from "../../lib/i18n/runtime";
import type { Refusal } from "../../stores/panel-change";
import { methodKeys, providerKeys, routeName, type T } from "./route-name";

/**
 * Why a save was refused, in the screen's words; the server's own message (which names the
 * provider) is shown under it as it came.
 */
export function paymentsRefusalKey(refusal: Refusal): TranslationKey {
  if (refusal.status === undefined) return "panel.connectionFailed";
  switch (refusal.code) {
    case "admin_only":
      return "panel.forbidden";
    case "payment_provider_not_configured":
      return "panel.paymentsRefusedNotConfigured";
    case "payment_routes_incomplete":
      return "panel.paymentsRefusedIncomplete";
    default:
      return "panel.requestFailed";
  }
}

type Route = { provider: PaymentProvider; method: PaymentMethod; enabled: boolean };

/** An audit entry's list of routes, or none when it is not one (an older or foreign entry). */
function routesOf(value: unknown): Route[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is Route =>
      typeof item === "object" &&
      item !== null &&
      Object.hasOwn(providerKeys, item.provider) &&
      Object.hasOwn(methodKeys, item.method) &&
      typeof item.enabled === "boolean",
  );
}

const keyOf = (route: Route) => `${route.provider}/${route.method}`;

/**
 * The routes that moved: those outside the longest run the two orders keep in common, so
 * one route taken from third place to first reads as that route moved, not as the two it
 * passed moved down.
 */
function movedKeys(before: string[], after: string[]): Set<string> {
  // kept[i][j]: the longest common run of before[i…] and after[j…] (four routes: a tiny table).
  const kept = before.map(() => after.map(() => 0));
  const at = (i: number, j: number) => kept[i]?.[j] ?? 0;
  for (let i = before.length - 1; i >= 0; i--)
    for (let j = after.length - 1; j >= 0; j--)
      (kept[i] as number[])[j] =
        before[i] === after[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
  const stayed = new Set<string>();
  // On a tie the route in `after` is left out: of two that swapped places, the one now higher
  // reads as moved (the operator pressed its Up).
  for (let i = 0, j = 0; i < before.length && j < after.length; ) {
    if (before[i] === after[j]) {
      stayed.add(before[i] as string);
      i++;
      j++;
    } else if (at(i + 1, j) > at(i, j + 1)) i++;
    else j++;
  }
  return new Set(after.filter((key) => !stayed.has(key)));
}

/** A `payments.routes` audit entry in words: what was moved, switched on and switched off. */
export function routesChangeWords(details: { before?: unknown; after?: unknown }, t: T): string {
  const before = routesOf(details.before);
  const after = routesOf(details.after);
  // Written by every save with both lists; without them, what changed cannot be told.
  if (before.length === 0 || after.length === 0) return t("panel.auditRoutesChanged");
  const wasOn = new Map(before.map((route) => [keyOf(route), route.enabled]));
  const moved = movedKeys(before.map(keyOf), after.map(keyOf));
  const changes = [
    ...after.flatMap((route, index) =>
      moved.has(keyOf(route))
        ? [t("panel.auditRoutesMoved", { route: routeName(t, route), place: index + 1 })]
        : [],
    ),
    ...after.flatMap((route) => {
      const was = wasOn.get(keyOf(route));
      if (was === undefined || was === route.enabled) return [];
      return [
        t(route.enabled ? "panel.auditRoutesOn" : "panel.auditRoutesOff", { route: routeName(t, route) }),
      ];
    }),
  ];
  if (changes.length === 0) return t("panel.auditRoutesUnchanged");
  return t("panel.auditRoutes", { changes: changes.join(t("panel.auditRoutesSeparator")) });
}
