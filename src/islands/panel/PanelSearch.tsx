import { useState } from "react";
import { api } from "../../lib/api-client";
import { useTranslation } from "../../lib/i18n/use-translation";
import { customerHref, panelCall, selectPerson } from "../../stores/panel-session";
import { Pager, PanelLayout } from "./PanelLayout";
import { Empty, Failed, Loading } from "./PanelStates";
import { usePanelData } from "./use-panel-data";

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const key = (
    ["EXPIRED", "ACTIVE", "CANCELED", "NOT_ACTIVE"].includes(status)
      ? `panel.status${status}`
      : "panel.statusNOT_ACTIVE"
  ) as "panel.statusACTIVE";
  return <span className={`badge badge--${status.toLowerCase()}`}>{t(key)}</span>;
}

function Search() {
  const { t } = useTranslation();
  const [emailPart, setEmailPart] = useState("");
  const [query, setQuery] = useState({ part: "", page: 0 });
  const { loaded, retry } = usePanelData(`${query.part}|${query.page}`, () =>
    panelCall((headers) =>
      api.panel.users.search.post(
        {},
        { headers, query: { page: query.page, size: 10, sortBy: "id", emailPart: query.part } },
      ),
    ),
  );

  return (
    <>
      <form
        className="panel-search"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery({ part: emailPart.trim(), page: 0 });
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
      {loaded.state === "failed" && <Failed status={loaded.status} onRetry={retry} />}
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
      {loaded.state === "ready" && (
        <Pager
          page={query.page}
          totalPages={loaded.data.page.totalPages}
          onChange={(page) => setQuery({ ...query, page })}
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
