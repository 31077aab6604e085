import { useEffect, useState } from "react";
import { api } from "../../lib/api-client";
import { useTranslation } from "../../lib/i18n/use-translation";
import { panelCall, selectPerson } from "../../stores/panel-session";
import { Pager, PanelLayout } from "./PanelLayout";

type Result = {
  content: { id: number; email: string; subscription: { status: string } }[];
  page: { totalPages: number };
};

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
  const [page, setPage] = useState(0);
  const [result, setResult] = useState<Result | undefined>();
  const [isLoading, setIsLoading] = useState(false);

  const load = async (part: string, number: number) => {
    setIsLoading(true);
    const { data } = await panelCall((headers) =>
      api.panel.users.search.post(
        {},
        { headers, query: { page: number, size: 10, sortBy: "id", emailPart: part } },
      ),
    );
    setIsLoading(false);
    if (data) {
      setResult(data);
      setPage(number);
    }
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the first page loads once, on mount.
  useEffect(() => {
    void load("", 0);
  }, []);

  return (
    <>
      <form
        className="panel-search"
        onSubmit={(event) => {
          event.preventDefault();
          void load(emailPart, 0);
        }}
      >
        <label className="field">
          <span>{t("panel.searchLabel")}</span>
          <input value={emailPart} onChange={(event) => setEmailPart(event.target.value)} type="search" />
        </label>
        <button type="submit" className="button button--primary" disabled={isLoading}>
          {t("panel.searchButton")}
        </button>
        <a href="/panel-promo">{t("panel.navPromos")}</a>
      </form>
      {result && result.content.length === 0 && <p className="muted">{t("panel.nothingFound")}</p>}
      {result && result.content.length > 0 && (
        <ul className="panel-list" aria-busy={isLoading}>
          {result.content.map((user) => (
            <li key={user.id}>
              <button
                type="button"
                className="panel-row"
                onClick={() => {
                  selectPerson(user);
                  location.assign("/panel-user");
                }}
              >
                <span className="muted">#{user.id}</span>
                <span className="panel-row__email">{user.email}</span>
                <StatusBadge status={user.subscription.status} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {result && (
        <Pager
          page={page}
          totalPages={result.page.totalPages}
          onChange={(number) => void load(emailPart, number)}
        />
      )}
    </>
  );
}

export function PanelSearch() {
  return (
    <PanelLayout title={(t) => t("panel.navSearch")}>
      <Search />
    </PanelLayout>
  );
}
