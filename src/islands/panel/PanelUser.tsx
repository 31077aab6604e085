import { useStore } from "@nanostores/react";
import { type ReactNode, useEffect } from "react";
import type { Currency } from "../../../core/money";
import { fractionToPercent } from "../../../core/money";
import { formatDate, formatDateFor, formatUnits } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import { customerHref } from "../../stores/panel-session";
import {
  $customer,
  type Customer,
  hasRunningSubscription,
  loadCustomer,
  retryCustomer,
} from "../../stores/panel-user";
import { PanelLayout } from "./PanelLayout";
import { PanelMessages } from "./PanelMessages";
import { StatusBadge } from "./PanelSearch";
import { Failed, Loading, NoCustomer, ScrollRegion, WithCustomer } from "./PanelStates";
import { ReportedName } from "./ReportedName";

const percent = (fraction: number) => `${Math.round(fractionToPercent(fraction))}%`;

function Details({ id }: { id: number }) {
  const { t, language } = useTranslation();
  const loaded = useStore($customer);
  useEffect(() => {
    void loadCustomer(id);
  }, [id]);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "failed")
    return loaded.code === "customer_not_found" ? (
      <NoCustomer reason="unknown" />
    ) : (
      <Failed failure={loaded} onRetry={() => void retryCustomer()} />
    );
  const user = loaded.data;
  const currency: Currency = user.currency === "KZT" ? "KZT" : "RUB";
  const money = (units: number) => formatUnits(units, currency);
  const status = user.subscription.status;
  const isManageable = hasRunningSubscription(user);
  const yesNo = (value: boolean) => (value ? t("panel.yes") : t("panel.no"));
  const rows: [string, ReactNode][] = [
    [t("panel.id"), user.id],
    [t("panel.email"), user.email],
    [t("panel.startDate"), formatDate(user.subscription.startDate, language) || "—"],
    [t("panel.endDate"), formatDate(user.subscription.endDate, language) || "—"],
    [t("panel.firstPayment"), money(user.firstPayment)],
    [t("panel.permanentCost"), <PermanentCost key="cost" user={user} />],
    [t("panel.firstPaid"), yesNo(user.firstPaymentIsActive)],
    [t("panel.promoActivated"), yesNo(user.isPromoActivated)],
    [t("panel.initialDiscount"), percent(user.discount)],
    [t("panel.referralDiscount"), percent(user.referralDiscount)],
    [t("panel.extraDevices"), Math.max(0, user.subscription.deviceCount - 1)],
    [
      t("panel.card"),
      user.card.isSaved
        ? t("panel.cardSaved", { lastFour: user.card.lastFour ?? "" })
        : user.card.removedAt
          ? t(user.card.removedBy === "bank" ? "panel.autopayRevoked" : "panel.cardRemoved", {
              on: formatDateFor("on", user.card.removedAt, language),
            })
          : t("panel.cardNone"),
    ],
    [
      t("panel.invitationLink"),
      user.invitationCode ? `${location.origin}/?token=${user.invitationCode}` : "—",
    ],
  ];
  const active = user.devices.filter((device) => device.isActive);
  return (
    <>
      {user.deletedAt && (
        <p className="panel-notice" role="note">
          {t("panel.deletedNotice", { on: formatDateFor("on", user.deletedAt, language) })}
        </p>
      )}
      <dl className="panel-details">
        <div>
          <dt>{t("panel.subscriptionStatus")}</dt>
          <dd>
            <StatusBadge status={status} />
          </dd>
        </div>
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="panel-actions">
        <a className="button button--ghost" href={customerHref("panel-invited", user.id)}>
          {t("panel.toInvited")}
        </a>
        <a className="button button--ghost" href={customerHref("panel-receipts", user.id)}>
          {t("panel.toReceipts")}
        </a>
        <a className="button button--ghost" href={customerHref("panel-logs", user.id)}>
          {t("panel.toLogs")}
        </a>
        {isManageable && (
          <a className="button button--primary" href={customerHref("panel-subscription", user.id)}>
            {t("panel.toSubscription")}
          </a>
        )}
      </div>
      {isManageable && (
        <section className="card" aria-labelledby="panel-devices">
          <h2 id="panel-devices">{t("panel.devices")}</h2>
          {active.length === 0 ? (
            <p className="muted">{t("panel.noDevices")}</p>
          ) : (
            <ScrollRegion label={t("panel.devices")}>
              <table className="panel-table">
                <thead>
                  <tr>
                    <th>{t("panel.id")}</th>
                    <th>{t("panel.deviceName")}</th>
                    <th>{t("panel.platform")}</th>
                    <th>{t("panel.created")}</th>
                    <th>{t("panel.firstActivation")}</th>
                  </tr>
                </thead>
                <tbody>
                  {active.map((device) => (
                    <tr key={device.id}>
                      <td>{device.id}</td>
                      <td>
                        <ReportedName name={device.deviceName} isShort />
                      </td>
                      <td>{device.platform}</td>
                      <td>{formatDate(device.created, language)}</td>
                      <td>{formatDate(device.firstActivation, language) || "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )}
          <p>{t("panel.inactiveDevices", { count: user.devices.length - active.length })}</p>
        </section>
      )}
      <PanelMessages userId={user.id} />
    </>
  );
}

/** What the customer is billed each period and what that sum is made of. */
function PermanentCost({ user }: { user: Customer }) {
  const { t } = useTranslation();
  const cost = user.subscription.cost;
  const currency: Currency = user.currency === "KZT" ? "KZT" : "RUB";
  if (!cost) return <>—</>;
  return (
    <>
      {t("panel.costPerPeriod", {
        amount: formatUnits(user.subscription.totalCost, currency),
        months: cost.months,
      })}
      <br />
      <span className="muted panel-cost-parts">
        {t("panel.costParts", {
          tariff: formatUnits(cost.tariffPrice, currency),
          devices: formatUnits(cost.extraDevicesPrice, currency),
          discount: cost.discountPercent,
        })}
      </span>
    </>
  );
}

export function PanelUser() {
  return (
    <PanelLayout title={(t) => t("panel.userTitle")} section="search">
      <WithCustomer>{(id) => <Details id={id} />}</WithCustomer>
    </PanelLayout>
  );
}
