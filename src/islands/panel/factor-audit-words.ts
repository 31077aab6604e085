import type { AuditEntry } from "../../stores/panel-audit";
import type { T } from "./route-name";

/** What the second factor's entries hold (never a secret): how, why it failed, which passkey, whose. */
type Details = { method?: unknown; reason?: unknown; name?: unknown; username?: unknown };

const text = (value: unknown) =>
  typeof value === "string" || typeof value === "number" ? String(value) : "";

/** How an operator proved who they were, as "signed in {{method}}" says it. */
function methodWords(method: unknown, t: T): string {
  switch (method) {
    case "password":
      return t("panel.auditByPassword");
    case "passkey":
      return t("panel.auditByPasskey");
    case "totp":
      return t("panel.auditByTotp");
    case "recovery":
      return t("panel.auditByRecovery");
    default:
      return text(method);
  }
}

/** What was wrong with a sign-in or a fresh check that failed, by the way it was tried. */
function wrongWords(method: unknown, t: T): string {
  switch (method) {
    case "password":
      return t("panel.auditWrongPassword");
    case "totp":
      return t("panel.auditWrongTotp");
    case "recovery":
      return t("panel.auditWrongRecovery");
    case "passkey":
      return t("panel.auditPasskeyRefused");
    default:
      return text(method);
  }
}

/** The second factor's entries (DESIGN §12): sign-ins, failures, enrolments, removals, checks. */
export function describeFactorEntry(
  entry: AuditEntry,
  details: Details,
  t: T,
): { what: string; who?: string } | undefined {
  switch (entry.action) {
    case "operator.login":
      return {
        what: details.method
          ? t("panel.auditLoginWith", { method: methodWords(details.method, t) })
          : t("panel.auditLogin"),
      };
    case "operator.login-failed": {
      const reason = wrongWords(details.reason, t);
      // An unknown username has no operator: the entry names what was typed.
      return entry.operator
        ? { what: t("panel.auditLoginFailed", { reason }) }
        : {
            who: t("panel.auditSomeone"),
            what: details.username
              ? t("panel.auditLoginFailedAs", { username: text(details.username), reason })
              : t("panel.auditLoginFailed", { reason }),
          };
    }
    case "operator.passkey-add":
      return { what: t("panel.auditPasskeyAdd", { name: text(details.name) }) };
    case "operator.passkey-remove":
      return { what: t("panel.auditPasskeyRemove", { name: text(details.name) }) };
    case "operator.totp-add":
      return { what: t("panel.auditTotpAdd") };
    case "operator.totp-remove":
      return { what: t("panel.auditTotpRemove") };
    case "operator.recovery-codes-new":
      return { what: t("panel.auditRecoveryNew") };
    case "operator.fresh-check":
      return { what: t("panel.auditFreshCheck", { method: methodWords(details.method, t) }) };
    case "operator.fresh-check-failed":
      // The server records how the check was tried as its `reason`, as a failed sign-in's.
      return {
        what: t("panel.auditFreshCheckFailed", { reason: wrongWords(details.reason ?? details.method, t) }),
      };
    case "operator.reset-factors":
      return { what: t("panel.auditResetFactors", { username: text(details.username) }) };
    default:
      return undefined;
  }
}
