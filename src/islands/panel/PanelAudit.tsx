import { useEffect, useState } from "react";
import { api } from "../../lib/api-client";
import { useTranslation } from "../../lib/i18n/use-translation";
import { panelCall } from "../../stores/panel-session";
import { Pager, PanelLayout } from "./PanelLayout";

type Audit = NonNullable<Awaited<ReturnType<typeof api.panel.audit.get>>["data"]>;

function Log() {
  const { t, language } = useTranslation();
  const [page, setPage] = useState(0);
  const [audit, setAudit] = useState<Audit | undefined>();
  const [isForbidden, setIsForbidden] = useState(false);
  useEffect(() => {
    panelCall((headers) => api.panel.audit.get({ headers, query: { page, size: 20 } })).then(
      ({ data, error }) => {
        if (data) setAudit(data);
        else if (error?.status === 403) setIsForbidden(true);
      },
    );
  }, [page]);
  if (isForbidden) return <p role="alert">{t("panel.requestFailed")}</p>;
  if (!audit) return <p className="muted">{t("panel.loading")}</p>;
  if (audit.content.length === 0) return <p className="muted">{t("panel.empty")}</p>;
  return (
    <>
      <div className="panel-scroll">
        <table className="panel-table">
          <thead>
            <tr>
              <th>{t("panel.auditWhen")}</th>
              <th>{t("panel.auditWho")}</th>
              <th>{t("panel.auditAction")}</th>
              <th>{t("panel.auditTarget")}</th>
              <th>{t("panel.auditFrom")}</th>
            </tr>
          </thead>
          <tbody>
            {audit.content.map((entry) => (
              <tr key={entry.id}>
                <td>{new Date(entry.createdAt).toLocaleString(language)}</td>
                <td>{entry.operator ?? "—"}</td>
                <td>
                  <code>{entry.action}</code> {JSON.stringify(entry.details)}
                </td>
                <td>{entry.targetEmail ?? "—"}</td>
                <td>{entry.ipAddress ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={page} totalPages={audit.page.totalPages} onChange={setPage} />
    </>
  );
}

export function PanelAudit() {
  return (
    <PanelLayout title={(t) => t("panel.auditTitle")}>
      <Log />
    </PanelLayout>
  );
}
