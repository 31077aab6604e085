import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $hasRouteChanges,
  $providerHealth,
  $routesDraft,
  $routesRead,
  $routesSave,
  openPaymentRoutes,
  type PaymentRoute,
  resetRoutes,
  retryPaymentRoutes,
  saveRoutes,
} from "../../stores/panel-payments";
import { PanelLayout } from "./PanelLayout";
import { Failed, Loading, RefusalNote } from "./PanelStates";
import { ProviderItem, RouteItem } from "./PaymentsParts";
import { paymentsRefusalKey } from "./payments-words";
import { routeName } from "./route-name";

/** Save and Reset, with what the last save did; Save stays focusable when there is nothing to save. */
function SaveBar({ isJustSaved, onSave }: { isJustSaved: boolean; onSave: () => Promise<void> }) {
  const { t } = useTranslation();
  const hasChanges = useStore($hasRouteChanges);
  const { isBusy, refusal } = useStore($routesSave);
  const canSave = hasChanges && !isBusy;
  return (
    <div className="panel-payments__save">
      <div className="panel-payments__buttons">
        <button
          type="button"
          className="button button--primary"
          aria-disabled={!canSave}
          aria-busy={isBusy}
          onClick={() => canSave && void onSave()}
        >
          {t(isBusy ? "panel.paymentsSaving" : "panel.paymentsSave")}
        </button>
        <button
          type="button"
          className="button button--ghost"
          disabled={!hasChanges || isBusy}
          onClick={resetRoutes}
        >
          {t("panel.paymentsReset")}
        </button>
      </div>
      {hasChanges ? (
        <p className="panel-payments__unsaved">{t("panel.paymentsUnsaved")}</p>
      ) : (
        isJustSaved && <p className="muted">{t("panel.paymentsSavedNote")}</p>
      )}
      {refusal && <RefusalNote refusal={refusal} reason={paymentsRefusalKey(refusal)} />}
    </div>
  );
}

function Payments() {
  const { t } = useTranslation();
  const loaded = useStore($routesRead);
  const routes = useStore($routesDraft);
  const health = useStore($providerHealth);
  const hasChanges = useStore($hasRouteChanges);
  const { isBusy } = useStore($routesSave);
  const [moved, setMoved] = useState("");
  const [isJustSaved, setIsJustSaved] = useState(false);
  useEffect(() => {
    void openPaymentRoutes();
  }, []);
  useEffect(() => {
    if (hasChanges) setIsJustSaved(false);
    if (!hasChanges) return;
    // Changes not saved are lost with the page: the browser asks before leaving.
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    addEventListener("beforeunload", warn);
    return () => removeEventListener("beforeunload", warn);
  }, [hasChanges]);

  if (!routes)
    return loaded.state === "failed" ? (
      <Failed failure={loaded} onRetry={() => void retryPaymentRoutes()} />
    ) : (
      <Loading />
    );
  const isHealthy = (route: PaymentRoute) =>
    health.find((item) => item.provider === route.provider)?.healthy ?? true;
  const announce = (route: PaymentRoute, place: number) =>
    setMoved(t("panel.paymentsMoved", { route: routeName(t, route), place, count: routes.length }));
  const save = async () => setIsJustSaved(await saveRoutes());

  return (
    <>
      <section className="card" aria-labelledby="payments-routes">
        <h2 id="payments-routes">{t("panel.paymentsRoutesTitle")}</h2>
        <p className="muted">{t("panel.paymentsIntro")}</p>
        <p className="muted">{t("panel.paymentsStays")}</p>
        <ol className="panel-payments__routes">
          {routes.map((route, index) => (
            <RouteItem
              key={`${route.provider}/${route.method}`}
              route={route}
              place={index + 1}
              count={routes.length}
              isHealthy={isHealthy(route)}
              isBusy={isBusy}
              onMoved={announce}
            />
          ))}
        </ol>
        <p role="status" className="visually-hidden">
          {moved}
        </p>
        <SaveBar isJustSaved={isJustSaved} onSave={save} />
      </section>
      <section className="card" aria-labelledby="payments-providers">
        <h2 id="payments-providers">{t("panel.paymentsProvidersTitle")}</h2>
        <ul className="panel-payments__providers">
          {health.map((item) => (
            <ProviderItem
              key={item.provider}
              health={item}
              isConfigured={routes.some((route) => route.provider === item.provider && route.configured)}
            />
          ))}
        </ul>
      </section>
    </>
  );
}

export function PanelPayments() {
  return (
    <PanelLayout title={(t) => t("panel.paymentsTitle")} section="payments">
      <Payments />
    </PanelLayout>
  );
}
