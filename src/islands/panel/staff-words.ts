import type { TranslationKey } from "../../lib/i18n/runtime";
import type { Refusal } from "../../stores/panel-change";
import type { Role } from "../../stores/panel-staff";

/** The Staff screen's words: its roles and its refusals. */
export const roles: Role[] = ["support", "admin"];
export const roleKeys = { admin: "panel.staffRoleAdmin", support: "panel.staffRoleSupport" } as const;

/**
 * A refusal in the Staff screen's words, by its code. The screen keeps its own words: none
 * reads as the server's message for its code (that one names the operator, or only one of the
 * two fields the form checks, or only one of the self-protection rules); the server's message
 * is shown under them as it came.
 */
export function refusalKey(refusal: Refusal): TranslationKey {
  if (refusal.status === undefined) return "panel.connectionFailed";
  switch (refusal.code) {
    case "invalid_username":
    case "operator_password_too_short":
    case "invalid_input":
    case "invalid_request":
      return "panel.staffInvalid";
    case "admin_only":
      return "panel.forbidden";
    case "operator_not_found":
      return "panel.staffGone";
    case "operator_exists":
      return "panel.staffNameTaken";
    case "cannot_disable_self":
    case "cannot_change_own_role":
    case "last_admin_disable":
    case "last_admin_demote":
      return "panel.staffRefused";
    default:
      return "panel.requestFailed";
  }
}
