import { type ReactNode, useEffect, useState } from "react";
import { formatDateTime } from "../../../core/date-time";
import { api } from "../../lib/api-client";
import { formatDate, formatUnits, percent } from "../../lib/format";
import type { TranslationKey } from "../../lib/i18n/runtime";
import { useTranslation } from "../../lib/i18n/use-translation";
import { readStorage, storageKeys } from "../../lib/storage-keys";
import { browserTimeZone, timeZoneName } from "../../lib/time-zone-name";
import { customerHref, panelCall } from "../../stores/panel-session";
import { Pager, PanelLayout } from "./PanelLayout";
import { Empty, Failed, Loading, NoCustomer, ScrollRegion, WithCustomer } from "./PanelStates";
import { usePanelData } from "./use-panel-data";

type Table = { head: string[]; rows: { key: string | number; cells: ReactNode[] }[]; totalPages: number };
type Answer = { data: Table | null; error: { status: unknown; value: unknown } | null };

/** Receipts: the spec's 3 a page by default, more on request. */
const receiptSizes = [3, 10, 25, 50] as const;
type ReceiptSize = (typeof receiptSizes)[number];

/** A paged table of one customer's records; `load` fetches one page. */
function CustomerTable({
  userId,
  label,
  load,
  emptyKey,
  size,
  sizeChoice,
}: {
  userId: number;
  label: string;
  load: (userId: number, page: number) => Promise<Answer>;
  emptyKey: "panel.noReceipts" | "panel.noInvitees" | "panel.noConnections";
  size?: number;
  sizeChoice?: ReactNode;
}) {
  const { t, language } = useTranslation();
  const [page, setPage] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the page size restarts the list at its first page.
  useEffect(() => setPage(0), [size]);
  const { loaded, retry } = usePanelData(`${userId}|${page}|${size}|${language}`, () => load(userId, page));
  return (
    <>
      <p className="panel-crumbs">
        <a href={customerHref("panel-user", userId)}>{t("panel.back")}</a>
        <span className="panel-crumbs__who">
          {readStorage(storageKeys.selectedPersonEmail) ?? `#${userId}`}
        </span>
      </p>
      {sizeChoice}
      {loaded.state === "loading" && <Loading />}
      {loaded.state === "failed" &&
        (loaded.status === 404 ? (
          <NoCustomer reason="unknown" />
        ) : (
          <Failed status={loaded.status} onRetry={retry} />
        ))}
      {loaded.state === "ready" && loaded.data.rows.length === 0 && <Empty>{t(emptyKey)}</Empty>}
      {loaded.state === "ready" && loaded.data.rows.length > 0 && (
        <ScrollRegion label={label}>
          <table className="panel-table">
            <thead>
              <tr>
                {loaded.data.head.map((heading) => (
                  <th key={heading} scope="col">
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {loaded.data.rows.map((row) => (
                <tr key={row.key}>
                  {row.cells.map((cell, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: cells of a row are positional.
                    <td key={index}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {loaded.state === "ready" && (
        <Pager page={page} totalPages={loaded.data.totalPages} onChange={setPage} />
      )}
    </>
  );
}

const paymentStatusKeys: Record<string, TranslationKey> = {
  COMPLETED: "panel.paymentCOMPLETED",
  DECLINED: "panel.paymentDECLINED",
  REFUNDED: "panel.paymentREFUNDED",
  PENDING: "panel.paymentPENDING",
};

const receiptKindKeys = {
  first: "panel.refundKindFirst",
  renewal: "panel.refundKindRenewal",
  device: "panel.refundKindDevice",
} as const;

function PaymentStatus({ status }: { status: string }) {
  const { t } = useTranslation();
  const key = paymentStatusKeys[status];
  return <span className={`badge badge--payment-${status.toLowerCase()}`}>{key ? t(key) : status}</span>;
}

function Receipts({ userId }: { userId: number }) {
  const { t, language } = useTranslation();
  const [size, setSize] = useState<ReceiptSize>(3);
  const load = async (id: number, page: number): Promise<Answer> => {
    const { data, error } = await panelCall((headers) =>
      api.panel.checks.post({}, { headers, query: { userId: id, page, size } }),
    );
    if (!data) return { data: null, error };
    return {
      error: null,
      data: {
        head: [
          // Times are in the browser's zone, named in the operator's language.
          t("panel.dateTime", { zone: timeZoneName(browserTimeZone(), language, t) }),
          t("panel.account"),
          t("panel.amount"),
          t("panel.paymentStatus"),
          t("panel.refundKind"),
          t("panel.ipAddress"),
          t("panel.transactionId"),
          t("panel.subscriptionId"),
          t("panel.warranty"),
        ],
        rows: data.content.map((receipt, index) => ({
          key: `${receipt.transactionId ?? index}-${receipt.dateTime}`,
          cells: [
            <span key="when" className="panel-nowrap">
              {formatDateTime(receipt.dateTime, language)}
            </span>,
            receipt.accountId,
            <span key="amount" className="panel-nowrap">
              {formatUnits(receipt.amount, receipt.currency === "KZT" ? "KZT" : "RUB")}
            </span>,
            <PaymentStatus key="status" status={receipt.status} />,
            <span key="what">{t(receiptKindKeys[receipt.kind])}</span>,
            receipt.ipAddress ?? "—",
            receipt.transactionId ?? "—",
            receipt.subscriptionId ?? "—",
            receipt.isWarrantyOver ? t("panel.warrantyExpired") : t("panel.warrantyValid"),
          ],
        })),
        totalPages: data.page.totalPages,
      },
    };
  };
  const sizeChoice = (
    <label className="field panel-size">
      <span>{t("panel.pageSize")}</span>
      <select value={size} onChange={(event) => setSize(Number(event.target.value) as ReceiptSize)}>
        {receiptSizes.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <CustomerTable
      userId={userId}
      label={t("panel.receiptsTitle")}
      load={load}
      emptyKey="panel.noReceipts"
      size={size}
      sizeChoice={sizeChoice}
    />
  );
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

function Invited({ userId }: { userId: number }) {
  const { t, language } = useTranslation();
  const load = async (id: number, page: number): Promise<Answer> => {
    const { data, error } = await panelCall((headers) =>
      api.panel.invitations.getInviteesByInviterId.post(
        {},
        { headers, query: { userId: id, size: 10, page, sortBy: "created", sortDirection: "DESC" } },
      ),
    );
    if (!data) return { data: null, error };
    return {
      error: null,
      data: {
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
              {/* What this friend takes off the inviter's own period (prorated per month). */}
              {invitee.countsForDiscount && ` (${percent(invitee.discountPercent / 100, language)})`}
            </span>,
          ],
        })),
        totalPages: data.invitations.page.totalPages,
      },
    };
  };
  return (
    <CustomerTable userId={userId} label={t("panel.invitedTitle")} load={load} emptyKey="panel.noInvitees" />
  );
}

function Logs({ userId }: { userId: number }) {
  const { t, language } = useTranslation();
  const load = async (id: number): Promise<Answer> => {
    const { data, error } = await panelCall((headers) =>
      api.panel.logs.post({}, { headers, query: { userId: id } }),
    );
    if (!data) return { data: null, error };
    return {
      error: null,
      data: {
        head: [
          t("panel.id"),
          t("panel.email"),
          t("panel.deviceName"),
          t("panel.platform"),
          t("panel.server"),
          // Times are in the browser's zone, named in the operator's language.
          t("panel.dateTime", { zone: timeZoneName(browserTimeZone(), language, t) }),
          t("panel.ipAddress"),
          t("panel.connectionSucceeded"),
        ],
        rows: data.map((log) => ({
          key: log.id,
          cells: [
            log.id,
            log.email,
            log.deviceName === null ? "—" : log.deviceName || t("panel.deviceNotNamed"),
            log.platform ?? "—",
            log.serverName ?? t("panel.notSpecified"),
            formatDateTime(log.connectionDate, language),
            log.userIp ?? "—",
            log.success ? t("panel.yes") : t("panel.no"),
          ],
        })),
        totalPages: 1,
      },
    };
  };
  return (
    <CustomerTable userId={userId} label={t("panel.logsTitle")} load={load} emptyKey="panel.noConnections" />
  );
}

export const PanelReceipts = () => (
  <PanelLayout title={(t) => t("panel.receiptsTitle")} section="search">
    <WithCustomer>{(id) => <Receipts userId={id} />}</WithCustomer>
  </PanelLayout>
);
export const PanelInvited = () => (
  <PanelLayout title={(t) => t("panel.invitedTitle")} section="search">
    <WithCustomer>{(id) => <Invited userId={id} />}</WithCustomer>
  </PanelLayout>
);
export const PanelLogs = () => (
  <PanelLayout title={(t) => t("panel.logsTitle")} section="search">
    <WithCustomer>{(id) => <Logs userId={id} />}</WithCustomer>
  </PanelLayout>
);
