import { type ReactNode, useEffect, useState } from "react";
import { api } from "../../lib/api-client";
import { formatDate } from "../../lib/format";
import type { TranslationKey } from "../../lib/i18n/runtime";
import { useTranslation } from "../../lib/i18n/use-translation";
import { readStorage, storageKeys } from "../../lib/storage-keys";
import { panelCall, selectedPersonId } from "../../stores/panel-session";
import { Pager, PanelLayout } from "./PanelLayout";

type Table = { head: string[]; rows: { key: string | number; cells: ReactNode[] }[]; totalPages: number };

/** A paged table of the selected customer's records; `load` fetches one page. */
function CustomerTable({
  load,
  emptyKey,
}: {
  load: (userId: number, page: number) => Promise<Table | undefined>;
  emptyKey: "panel.empty" | "panel.nothingHere" | "panel.nothingFound";
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const [table, setTable] = useState<Table | undefined>();
  useEffect(() => {
    const userId = selectedPersonId();
    if (!userId) {
      location.assign("/panel-search");
      return;
    }
    load(userId, page).then(setTable);
  }, [page, load]);
  return (
    <>
      <p>
        <a href="/panel-user">{t("panel.back")}</a> · {readStorage(storageKeys.selectedPersonEmail)}
      </p>
      {!table && <p className="muted">{t("panel.loading")}</p>}
      {table && table.rows.length === 0 && <p className="muted">{t(emptyKey)}</p>}
      {table && table.rows.length > 0 && (
        <div className="panel-scroll">
          <table className="panel-table">
            <thead>
              <tr>
                {table.head.map((heading) => (
                  <th key={heading}>{heading}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row) => (
                <tr key={row.key}>
                  {row.cells.map((cell, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: cells of a row are positional.
                    <td key={index}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {table && <Pager page={page} totalPages={table.totalPages} onChange={setPage} />}
    </>
  );
}

function Receipts() {
  const { t, language } = useTranslation();
  const load = async (userId: number, page: number): Promise<Table | undefined> => {
    const { data } = await panelCall((headers) =>
      api.panel.checks.post({}, { headers, query: { userId, page, size: 3 } }),
    );
    if (!data) return undefined;
    return {
      head: [
        t("panel.date"),
        t("panel.account"),
        t("panel.amount"),
        t("panel.description"),
        t("panel.ipAddress"),
        t("panel.paymentStatus"),
        t("panel.transactionId"),
        t("panel.subscriptionId"),
        t("panel.warranty"),
      ],
      rows: data.content.map((receipt, index) => ({
        key: `${receipt.transactionId ?? index}-${receipt.dateTime}`,
        cells: [
          formatDate(receipt.dateTime, language),
          receipt.accountId,
          receipt.amount,
          receipt.description,
          receipt.ipAddress ?? "—",
          receipt.status,
          receipt.transactionId ?? "—",
          receipt.subscriptionId ?? "—",
          receipt.isWarrantyOver ? t("panel.warrantyExpired") : t("panel.warrantyValid"),
        ],
      })),
      totalPages: data.page.totalPages,
    };
  };
  return <CustomerTable load={load} emptyKey="panel.empty" />;
}

type InviteesPage = NonNullable<
  Awaited<ReturnType<typeof api.panel.invitations.getInviteesByInviterId.post>>["data"]
>;
type DiscountReason = InviteesPage["invitations"]["content"][number]["discountReason"];

/** The operator's wording of DESIGN §13's reasons: what a support answer can quote. */
const discountReasonKeys: Record<DiscountReason, TranslationKey> = {
  counts: "panel.discountReasonCounts",
  "not-paid-yet": "panel.discountReasonNotPaidYet",
  "trial-only": "panel.discountReasonTrialOnly",
  "not-active": "panel.discountReasonNotActive",
  "inviters-card": "panel.discountReasonInvitersCard",
};

function Invited() {
  const { t, language } = useTranslation();
  const load = async (userId: number, page: number): Promise<Table | undefined> => {
    const { data } = await panelCall((headers) =>
      api.panel.invitations.getInviteesByInviterId.post(
        {},
        { headers, query: { userId, size: 10, page, sortBy: "created", sortDirection: "DESC" } },
      ),
    );
    if (!data) return undefined;
    return {
      head: [
        t("panel.id"),
        t("panel.email"),
        t("panel.created"),
        t("panel.startDate"),
        t("panel.endDate"),
        t("panel.subscriptionStatus"),
        t("panel.countsForDiscount"),
      ],
      rows: data.invitations.content.map((invitee) => ({
        key: invitee.inviteeId,
        cells: [
          invitee.inviteeId,
          invitee.inviteeEmail,
          formatDate(invitee.created, language),
          formatDate(invitee.discountStartDate, language) || "—",
          formatDate(invitee.subscriptionEndDate, language) || "—",
          invitee.hasSubscription ? t("panel.active") : t("panel.absent"),
          <span key="counts" data-counts={invitee.countsForDiscount}>
            <strong>{invitee.countsForDiscount ? t("panel.yes") : t("panel.no")}</strong>
            {": "}
            {t(discountReasonKeys[invitee.discountReason])}
          </span>,
        ],
      })),
      totalPages: data.invitations.page.totalPages,
    };
  };
  return <CustomerTable load={load} emptyKey="panel.nothingHere" />;
}

function Logs() {
  const { t, language } = useTranslation();
  const load = async (userId: number): Promise<Table | undefined> => {
    const { data } = await panelCall((headers) => api.panel.logs.post({}, { headers, query: { userId } }));
    if (!data) return undefined;
    return {
      head: [
        t("panel.id"),
        t("panel.email"),
        t("panel.deviceName"),
        t("panel.platform"),
        t("panel.server"),
        t("panel.date"),
        t("panel.ipAddress"),
        t("panel.connectionSucceeded"),
      ],
      rows: data.map((log) => ({
        key: log.id,
        cells: [
          log.id,
          log.email,
          log.deviceName ?? "—",
          log.platform ?? "—",
          log.serverName ?? t("panel.notSpecified"),
          `${formatDate(log.connectionDate, language)} ${new Date(log.connectionDate).toLocaleTimeString(language)}`,
          log.userIp ?? "—",
          log.success ? t("panel.yes") : t("panel.no"),
        ],
      })),
      totalPages: 1,
    };
  };
  return <CustomerTable load={load} emptyKey="panel.nothingFound" />;
}

export const PanelReceipts = () => (
  <PanelLayout title={(t) => t("panel.receiptsTitle")}>
    <Receipts />
  </PanelLayout>
);
export const PanelInvited = () => (
  <PanelLayout title={(t) => t("panel.invitedTitle")}>
    <Invited />
  </PanelLayout>
);
export const PanelLogs = () => (
  <PanelLayout title={(t) => t("panel.logsTitle")}>
    <Logs />
  </PanelLayout>
);
