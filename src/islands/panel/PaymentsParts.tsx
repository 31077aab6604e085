import { useId } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  moveRoute,
  type PaymentRoute,
  type ProviderHealth,
  setRouteEnabled,
} from "../../stores/panel-payments";
import { methodKeys, providerKeys, routeName } from "./route-name";

/**
 * One route in the order new purchases try them: its provider and method, its switch and
 * its moves. The moves are never `disabled` (at an end, or while saving): a disabled button
 * drops the keyboard's focus, so they say so with aria-disabled and do nothing.
 */
export function RouteItem({
  route,
  place,
  count,
  isHealthy,
  isBusy,
  onMoved,
}: {
  route: PaymentRoute;
  place: number;
  count: number;
  isHealthy: boolean;
  isBusy: boolean;
  onMoved: (route: PaymentRoute, place: number) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const name = routeName(t, route);
  const move = (by: -1 | 1) => {
    const to = place + by;
    if (isBusy || to < 1 || to > count) return;
    moveRoute(route, by);
    onMoved(route, to);
  };
  const isMoveBlocked = (by: -1 | 1) => isBusy || place + by < 1 || place + by > count;

  return (
    <li className="panel-payments__route" aria-busy={isBusy}>
      <span className="panel-payments__place" aria-hidden="true">
        {place}
      </span>
      <div className="panel-payments__name">
        <strong>{t(providerKeys[route.provider])}</strong>
        <span className="badge">{t(methodKeys[route.method])}</span>
        {!route.configured ? (
          <span className="badge badge--expired">{t("panel.paymentsNotConfigured")}</span>
        ) : (
          !isHealthy && <span className="badge badge--expired">{t("panel.paymentsSkipped")}</span>
        )}
      </div>
      <div className="panel-payments__controls">
        <label className="panel-payments__switch">
          <input
            type="checkbox"
            role="switch"
            className="panel-payments__toggle"
            checked={route.enabled}
            aria-checked={route.enabled}
            disabled={isBusy || !route.configured}
            aria-label={name}
            aria-describedby={route.configured ? undefined : `${id}-why`}
            onChange={(event) => setRouteEnabled(route, event.target.checked)}
          />
          <span aria-hidden="true">{t(route.enabled ? "panel.paymentsOn" : "panel.paymentsOff")}</span>
        </label>
        <div className="panel-payments__moves">
          <button
            type="button"
            className="button button--ghost"
            aria-disabled={isMoveBlocked(-1)}
            aria-label={t("panel.paymentsMoveUp", { route: name })}
            onClick={() => move(-1)}
          >
            {t("panel.paymentsUp")}
          </button>
          <button
            type="button"
            className="button button--ghost"
            aria-disabled={isMoveBlocked(1)}
            aria-label={t("panel.paymentsMoveDown", { route: name })}
            onClick={() => move(1)}
          >
            {t("panel.paymentsDown")}
          </button>
        </div>
      </div>
      {!route.configured && (
        <p id={`${id}-why`} className="muted panel-payments__why">
          {t("panel.paymentsSwitchWhy")}
        </p>
      )}
    </li>
  );
}

/** A provider's state on this server: not set up, healthy, or failing and skipped by new purchases. */
export function ProviderItem({ health, isConfigured }: { health: ProviderHealth; isConfigured: boolean }) {
  const { t } = useTranslation();
  const counts = { failed: health.failed, calls: health.calls };
  const [state, dot, detail] = !isConfigured
    ? (["panel.paymentsNotConfigured", "disabled", t("panel.paymentsNotConfiguredWhy")] as const)
    : !health.healthy
      ? (["panel.paymentsFailing", "offline", t("panel.paymentsFailingDetail", counts)] as const)
      : ([
          "panel.paymentsHealthy",
          "online",
          health.calls === 0 ? t("panel.paymentsNoCalls") : t("panel.paymentsHealthyDetail", counts),
        ] as const);
  return (
    <li className="panel-payments__provider">
      <strong>{t(providerKeys[health.provider])}</strong>
      <span
        className={`panel-nodes__state${health.healthy || !isConfigured ? "" : " panel-entries__state--failing"}`}
      >
        <span className={`panel-nodes__dot panel-nodes__dot--${dot}`} aria-hidden="true" />
        {t(state)}
      </span>
      <p className="muted panel-payments__detail">{detail}</p>
    </li>
  );
}
