import type { TranslationKey } from "../../lib/i18n/runtime";
import type { Refusal } from "../../stores/panel-change";
import type { Role } from "../../stores/panel-staff";

/** The Staff screen's words: its roles and its refusals. */
export const roles: Role[] = ["support", "admin"];
export const roleKeys = { admin: "panel.staffRoleAdmin", support: "panel.staffRoleSupport" } as const;

/** A refusal in the operator's words; a 409 means a taken name on creation, a protected account on a change. */
export function refusalKey(refusal: Refusal, isCreation: boolean): TranslationKey {
  switch (refusal.status) {
    case undefined:
      return "panel.connectionFailed";
    case 400:
      return "panel.staffInvalid";
    case 403:
      return "panel.forbidden";
    case 404:
      return "panel.staffGone";
    case 409:
      return isCreation ? "panel.staffNameTaken" : "panel.staffRefused";
    default:
      return "panel.requestFailed";
  }
}
