import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { formatDateTime } from "../../../core/date-time";
import { formatUnits } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $searchQuery,
  $searchResult,
  openSearch,
  retrySearch,
  searchCustomers,
  showSearchPage,
} from "../../stores/panel-search";
import { customerHref, selectPerson } from "../../stores/panel-session";
import { Pager, PanelLayout } from "./PanelLayout";
import { Empty, Failed, Loading } from "./PanelStates";

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const key = (
    ["EXPIRED", "ACTIVE", "CANCELED", "NOT_ACTIVE"].includes(status)
      ? `panel.status${status}`
      : "panel.statusNOT_ACTIVE"
  ) as "panel.statusACTIVE";
  return <span className={`badge badge--${status.toLowerCase()}`}>{t(key)}</span>;
}

type UnboundPurchase = {
  transactionId: string;
  amount: number;
  currency: string;
  email: string | null;
  paidAt: string;
};

/**
 * Paid anonymous purchases no account holds yet, found by the payer's e-mail or the
 * transaction id (docs/money.md): a purchase is never lost to support either.
 */
function UnboundPurchases({ purchases }: { purchases: UnboundPurchase[] }) {
  const { t, language } = useTranslation();
  if (purchases.length === 0) return null;
  return (
    <section aria-labelledby="unbound-title" data-testid="unbound-purchases">
      <h2 id="unbound-title">{t("panel.unboundTitle")}</h2>
      <p className="muted">{t("panel.unboundHint")}</p>
      <ul className="panel-list">
        {purchases.map((purchase) => (
          <li key={purchase.transactionId} className="panel-row">
            <span className="muted">#{purchase.transactionId}</span>
            <span className="panel-row__email">{purchase.email ?? t("panel.unboundNoEmail")}</span>
            <span>{formatUnits(purchase.amount, purchase.currency === "KZT" ? "KZT" : "RUB")}</span>
            <span className="muted">{formatDateTime(purchase.paidAt, language)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Search() {
  const { t } = useTranslation();
  const [emailPart, setEmailPart] = useState("");
  const query = useStore($searchQuery);
  const loaded = useStore($searchResult);
  useEffect(() => {
    void openSearch();
  }, []);

  return (
    <>
      <form
        className="panel-search"
        onSubmit={(event) => {
          event.preventDefault();
          void searchCustomers(emailPart);
        }}
      >
        <label className="field">
          <span>{t("panel.searchLabel")}</span>
          <input value={emailPart} onChange={(event) => setEmailPart(event.target.value)} type="search" />
        </label>
        <button type="submit" className="button button--primary" disabled={loaded.state === "loading"}>
          {t("panel.searchButton")}
        </button>
      </form>
      {loaded.state === "loading" && <Loading />}
      {loaded.state === "failed" && <Failed failure={loaded} onRetry={() => void retrySearch()} />}
      {loaded.state === "ready" && loaded.data.content.length === 0 && (
        <Empty>{t("panel.nothingFound")}</Empty>
      )}
      {loaded.state === "ready" && loaded.data.content.length > 0 && (
        <ul className="panel-list">
          {loaded.data.content.map((user) => (
            <li key={user.id}>
              {/* A real link: it opens in a new tab; the click also remembers the choice. */}
              <a
                className="panel-row"
                href={customerHref("panel-user", user.id)}
                onClick={() => selectPerson(user)}
              >
                <span className="muted">#{user.id}</span>
                <span className="panel-row__email">{user.email}</span>
                <StatusBadge status={user.subscription.status} />
                {user.deletedAt && <span className="badge panel-row__deleted">{t("panel.deletedTag")}</span>}
              </a>
            </li>
          ))}
        </ul>
      )}
      {loaded.state === "ready" && <UnboundPurchases purchases={loaded.data.unboundPurchases ?? []} />}
      {loaded.state === "ready" && (
        <Pager
          page={query.page}
          totalPages={loaded.data.page.totalPages}
          onChange={(page) => void showSearchPage(page)}
        />
      )}
    </>
  );
}

export function PanelSearch() {
  return (
    <PanelLayout title={(t) => t("panel.navSearch")} section="search">
      <Search />
    </PanelLayout>
  );
}
