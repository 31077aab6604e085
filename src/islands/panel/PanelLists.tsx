import { useStore } from "@nanostores/react";
import { type ReactNode, useEffect } from "react";
import { formatDateTime } from "../../../core/date-time";
import { percentToFraction } from "../../../core/money";
import { formatDate, formatUnits, percent } from "../../lib/format";
import type { TranslationKey } from "../../lib/i18n/runtime";
import { useTranslation } from "../../lib/i18n/use-translation";
import { browserTimeZone, timeZoneName } from "../../lib/time-zone-name";
import {
  type ConnectionLogs,
  type CustomerList,
  connectionLogs,
  type InviteesPage,
  invitees,
  type ReceiptSize,
  type ReceiptsPage,
  receiptSizes,
  receipts,
} from "../../stores/panel-lists";
import { customerHref } from "../../stores/panel-session";
import { $customer, loadCustomer } from "../../stores/panel-user";
import { Pager, PanelLayout } from "./PanelLayout";
import { Empty, Failed, Loading, NoCustomer, ScrollRegion, WithCustomer } from "./PanelStates";
import { ReportedName } from "./ReportedName";
import { routeName } from "./route-name";

type Table = { head: string[]; rows: { key: string | number; cells: ReactNode[] }[]; totalPages: number };

/**
 * Whom the page lists: the e-mail the server gives for the URL's id, never the customer
 * last chosen in this browser (another tab may have chosen someone else since).
 */
function CustomerName({ userId }: { userId: number }) {
  const named = useStore($customer);
  useEffect(() => {
    void loadCustomer(userId);
  }, [userId]);
  const email = named.state === "ready" && named.data.id === userId ? named.data.email : undefined;
  return <span className="panel-crumbs__who">{email ?? `#${userId}`}</span>;
}

/** A paged table of one customer's records; `table` words one page of them. */
function CustomerTable<T>({
  userId,
  label,
  list,
  table,
  emptyKey,
  sizeChoice,
}: {
  userId: number;
  label: string;
  list: CustomerList<T>;
  table: (data: T) => Table;
  emptyKey: "panel.noReceipts" | "panel.noInvitees" | "panel.noConnections";
  sizeChoice?: ReactNode;
}) {
  const { t } = useTranslation();
  const { page } = useStore(list.$query);
  const loaded = useStore(list.$loaded);
  useEffect(() => {
    void list.open(userId);
  }, [list, userId]);
  const shown = loaded.state === "ready" ? table(loaded.data) : undefined;
  return (
    <>
      <p className="panel-crumbs">
        <a href={customerHref("panel-user", userId)}>{t("panel.back")}</a>
        <CustomerName userId={userId} />
      </p>
      {sizeChoice}
      {loaded.state === "loading" && <Loading />}
      {loaded.state === "failed" &&
        (loaded.code === "customer_not_found" ? (
          <NoCustomer reason="unknown" />
        ) : (
          <Failed failure={loaded} onRetry={() => void list.retry()} />
        ))}
      {shown && shown.rows.length === 0 && <Empty>{t(emptyKey)}</Empty>}
      {shown && shown.rows.length > 0 && (
        <ScrollRegion label={label}>
          <table className="panel-table">
            <thead>
              <tr>
                {shown.head.map((heading) => (
                  <th key={heading} scope="col">
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.rows.map((row) => (
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
      {shown && (
        <Pager page={page} totalPages={shown.totalPages} onChange={(next) => void list.showPage(next)} />
      )}
    </>
  );
}

const paymentStatusKeys: Record<string, TranslationKey> = {
  COMPLETED: "panel.paymentCOMPLETED",
  DECLINED: "panel.paymentDECLINED",
  REFUNDED: "panel.paymentREFUNDED",
  // Accepted by the provider, the money not back yet (an SBP payment's refund).
  REFUND_IN_PROGRESS: "panel.paymentREFUND_IN_PROGRESS",
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
  const { size } = useStore(receipts.$query);
  const table = (data: ReceiptsPage): Table => ({
    head: [
      // Times are in the browser's zone, named in the operator's language.
      t("panel.dateTime", { zone: timeZoneName(browserTimeZone(), language, t) }),
      t("panel.account"),
      t("panel.amount"),
      t("panel.paymentStatus"),
      t("panel.refundKind"),
      t("panel.ipAddress"),
      t("panel.paidVia"),
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
        // "YooKassa (SBP)", as the Payments screen names a route: next to the transaction id,
        // it says at which provider support finds it.
        routeName(t, receipt),
        receipt.transactionId ?? "—",
        receipt.subscriptionId ?? "—",
        receipt.isWarrantyOver ? t("panel.warrantyExpired") : t("panel.warrantyValid"),
      ],
    })),
    totalPages: data.page.totalPages,
  });
  const sizeChoice = (
    <label className="field panel-size">
      <span>{t("panel.pageSize")}</span>
      <select
        value={size}
        onChange={(event) => void receipts.resize(Number(event.target.value) as ReceiptSize)}
      >
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
      list={receipts}
      table={table}
      emptyKey="panel.noReceipts"
      sizeChoice={sizeChoice}
    />
  );
}

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
  const table = (data: InviteesPage): Table => ({
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
          {invitee.countsForDiscount && ` (${percent(percentToFraction(invitee.discountPercent), language)})`}
        </span>,
      ],
    })),
    totalPages: data.invitations.page.totalPages,
  });
  return (
    <CustomerTable
      userId={userId}
      label={t("panel.invitedTitle")}
      list={invitees}
      table={table}
      emptyKey="panel.noInvitees"
    />
  );
}

function Logs({ userId }: { userId: number }) {
  const { t, language } = useTranslation();
  const table = (data: ConnectionLogs): Table => ({
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
        log.deviceName === null ? "—" : <ReportedName key="name" name={log.deviceName} />,
        log.platform ?? "—",
        log.serverName ?? t("panel.notSpecified"),
        formatDateTime(log.connectionDate, language),
        log.userIp ?? "—",
        log.success ? t("panel.yes") : t("panel.no"),
      ],
    })),
    totalPages: 1,
  });
  return (
    <CustomerTable
      userId={userId}
      label={t("panel.logsTitle")}
      list={connectionLogs}
      table={table}
      emptyKey="panel.noConnections"
    />
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
