import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { formatDateTime } from "../../../core/date-time";
import { fractionToPercent } from "../../../core/money";
import { formatUnits } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $auditLog,
  $auditQuery,
  type AuditEntry,
  openAudit,
  retryAudit,
  showAuditPage,
} from "../../stores/panel-audit";
import { customerHref } from "../../stores/panel-session";
import { describeFactorEntry } from "./factor-audit-words";
import { Pager, PanelLayout } from "./PanelLayout";
import { Empty, Failed, Loading } from "./PanelStates";
import { routesChangeWords } from "./payments-words";

type T = ReturnType<typeof useTranslation>["t"];
type Details = {
  username?: unknown;
  role?: unknown;
  promoCode?: unknown;
  discount?: unknown;
  expirationDate?: unknown;
  total?: unknown;
  currency?: unknown;
  isComplete?: unknown;
  payments?: unknown;
  name?: unknown;
  before?: unknown;
  after?: unknown;
  method?: unknown;
  reason?: unknown;
};

const text = (value: unknown) =>
  typeof value === "string" || typeof value === "number" ? String(value) : "";

const roleName = (role: unknown, t: T) =>
  role === "admin" ? t("panel.roleAdmin") : role === "support" ? t("panel.roleSupport") : text(role);

/** One audit entry as a sentence in the operator's language; unknown actions keep their code. */
function describeEntry(entry: AuditEntry, t: T): { what: string; amount?: string; who?: string } {
  const details = (entry.details ?? {}) as Details;
  const factorEntry = describeFactorEntry(entry, details, t);
  if (factorEntry) return factorEntry;
  switch (entry.action) {
    case "operator.create":
      return {
        what: t("panel.auditOperatorCreate", {
          username: text(details.username),
          role: roleName(details.role, t),
        }),
      };
    case "operator.reset-password":
      return { what: t("panel.auditOperatorReset", { username: text(details.username) }) };
    case "operator.disable":
      return { what: t("panel.auditOperatorDisable", { username: text(details.username) }) };
    case "operator.enable":
      return { what: t("panel.auditOperatorEnable", { username: text(details.username) }) };
    case "operator.unlock":
      return { what: t("panel.auditOperatorUnlock", { username: text(details.username) }) };
    case "customer.delete":
      // The customer's own act in the cabinet: no operator did it.
      return { who: t("panel.auditCustomer"), what: t("panel.auditCustomerDelete") };
    case "payment.after-deletion":
      return {
        who: t("panel.auditSystem"),
        what: t("panel.auditPaymentAfterDeletion"),
        amount:
          typeof details.total === "number"
            ? formatUnits(details.total, details.currency === "KZT" ? "KZT" : "RUB")
            : undefined,
      };
    case "operator.role":
      return {
        what: t("panel.auditOperatorRole", {
          username: text(details.username),
          role: roleName(details.role, t),
        }),
      };
    case "node.create":
      return { what: t("panel.auditNodeCreate", { name: text(details.name) }) };
    case "node.rotate-key":
      return { what: t("panel.auditNodeRotate", { name: text(details.name) }) };
    case "node.disable":
      return { what: t("panel.auditNodeDisable", { name: text(details.name) }) };
    case "node.enable":
      return { what: t("panel.auditNodeEnable", { name: text(details.name) }) };
    case "promo.create":
      return {
        what: t("panel.auditPromoCreate", {
          code: text(details.promoCode),
          discount: Math.round(fractionToPercent(Number(details.discount))),
        }),
      };
    case "payments.routes":
      return { what: routesChangeWords(details, t) };
    case "refund": {
      const count = Array.isArray(details.payments) ? details.payments.length : 0;
      const currency = details.currency === "KZT" ? "KZT" : "RUB";
      return {
        what:
          details.isComplete === false
            ? t("panel.auditRefundPartial", { count })
            : t("panel.auditRefund", { count }),
        amount: typeof details.total === "number" ? formatUnits(details.total, currency) : undefined,
      };
    }
    default:
      return { what: entry.action };
  }
}

function Log() {
  const { t, language } = useTranslation();
  const { page } = useStore($auditQuery);
  const loaded = useStore($auditLog);
  useEffect(() => {
    void openAudit();
  }, []);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "failed") return <Failed failure={loaded} onRetry={() => void retryAudit()} />;
  if (loaded.data.content.length === 0) return <Empty>{t("panel.auditEmpty")}</Empty>;
  return (
    <>
      <ol className="panel-audit">
        {loaded.data.content.map((entry) => {
          const { what, amount, who } = describeEntry(entry, t);
          return (
            <li key={entry.id} className="panel-audit__entry">
              <p className="panel-audit__what">
                <strong>{who ?? entry.operator ?? t("panel.auditSystem")}</strong> {what}
              </p>
              <dl className="panel-audit__facts">
                <div>
                  <dt>{t("panel.auditWhen")}</dt>
                  <dd>{formatDateTime(entry.createdAt, language)}</dd>
                </div>
                {entry.targetUserId !== null && (
                  <div>
                    <dt>{t("panel.auditTarget")}</dt>
                    <dd>
                      <a href={customerHref("panel-user", entry.targetUserId)}>
                        {entry.targetEmail ?? `#${entry.targetUserId}`}
                      </a>
                    </dd>
                  </div>
                )}
                {amount && (
                  <div>
                    <dt>{t("panel.auditAmount")}</dt>
                    <dd>{amount}</dd>
                  </div>
                )}
                <div>
                  <dt>{t("panel.auditFrom")}</dt>
                  <dd>{entry.ipAddress ?? "—"}</dd>
                </div>
              </dl>
            </li>
          );
        })}
      </ol>
      <Pager
        page={page}
        totalPages={loaded.data.page.totalPages}
        onChange={(next) => void showAuditPage(next)}
      />
    </>
  );
}

export function PanelAudit() {
  return (
    <PanelLayout title={(t) => t("panel.auditTitle")} section="audit">
      <Log />
    </PanelLayout>
  );
}
