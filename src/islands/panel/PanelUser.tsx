import { useEffect, useState } from "react";
import { api } from "../../lib/api-client";
import { shortDeviceName } from "../../lib/cabinet-view";
import { formatDate } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import { panelCall, selectedPersonId, selectPerson } from "../../stores/panel-session";
import { PanelLayout } from "./PanelLayout";
import { PanelMessages } from "./PanelMessages";
import { StatusBadge } from "./PanelSearch";

type User = NonNullable<Awaited<ReturnType<typeof api.panel.users.getUserById.post>>["data"]>;

const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

function Details() {
  const { t, language } = useTranslation();
  const [user, setUser] = useState<User | undefined>();
  useEffect(() => {
    const id = selectedPersonId();
    if (!id) {
      location.assign("/panel-search");
      return;
    }
    panelCall((headers) => api.panel.users.getUserById.post({}, { headers, query: { id } })).then(
      ({ data }) => {
        if (!data) return;
        setUser(data);
        selectPerson({ id: data.id, email: data.email, uid: data.uid });
      },
    );
  }, []);
  if (!user) return <p className="muted">{t("panel.loading")}</p>;
  const status = user.subscription.status;
  const isManageable = status === "ACTIVE" || status === "CANCELED";
  const yesNo = (value: boolean) => (value ? t("panel.yes") : t("panel.no"));
  const rows: [string, string | number][] = [
    [t("panel.id"), user.id],
    [t("panel.email"), user.email],
    [t("panel.startDate"), formatDate(user.subscription.startDate, language) || "—"],
    [t("panel.endDate"), formatDate(user.subscription.endDate, language) || "—"],
    [t("panel.firstPayment"), `${user.firstPayment} ${user.currency}`],
    [t("panel.permanentCost"), `${user.subscription.totalCost} ${user.currency}`],
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
          ? t("panel.cardRemoved", { date: formatDate(user.card.removedAt, language) })
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
        <a className="button button--ghost" href="/panel-invited">
          {t("panel.toInvited")}
        </a>
        <a className="button button--ghost" href="/panel-receipts">
          {t("panel.toReceipts")}
        </a>
        <a className="button button--ghost" href="/panel-logs">
          {t("panel.toLogs")}
        </a>
        {isManageable && (
          <a className="button button--primary" href="/panel-subscription">
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
                    <td title={device.deviceName}>{shortDeviceName(device.deviceName)}</td>
                    <td>{device.platform}</td>
                    <td>{formatDate(device.created, language)}</td>
                    <td>{formatDate(device.firstActivation, language) || "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p>{t("panel.inactiveDevices", { count: user.devices.length - active.length })}</p>
        </section>
      )}
      <PanelMessages userId={user.id} />
    </>
  );
}

export function PanelUser() {
  return (
    <PanelLayout title={(t) => t("panel.userTitle")}>
      <Details />
    </PanelLayout>
  );
}
