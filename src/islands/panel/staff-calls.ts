import { type api, errorMessage } from "../../lib/api-client";
import type { TranslationKey } from "../../lib/i18n/runtime";
import type { useTranslation } from "../../lib/i18n/use-translation";
import { panelCall } from "../../stores/panel-session";

/** The Staff screen's calls and the words for their refusals. */
export type Member = NonNullable<
  Awaited<ReturnType<typeof api.panel.operators.get>>["data"]
>["operators"][number];
export type Role = Member["role"];
type T = ReturnType<typeof useTranslation>["t"];
export type Answer<D> = { data: D | null; error: { status: unknown; value: unknown } | null };
/** Why a change did not happen: the HTTP status (none when the server was not reached) and the server's words. */
export type Refusal = { status: number | undefined; detail?: string };
/** A password the server made, shown once: never stored, gone when dismissed or the page is left. */
export type Revealed = { username: string; password: string };

export const roles: Role[] = ["support", "admin"];
export const roleKeys = { admin: "panel.staffRoleAdmin", support: "panel.staffRoleSupport" } as const;
export const roleWord = (role: Role, t: T) => t(role === "admin" ? "panel.roleAdmin" : "panel.roleSupport");

/** The server's order (`lower(username), id`): names are ASCII, compared code point by code point. */
export function byName(a: Member, b: Member): number {
  const [left, right] = [a.username.toLowerCase(), b.username.toLowerCase()];
  return left < right ? -1 : left > right ? 1 : a.id - b.id;
}

/** One staff call: its data, or the status and message of its refusal. */
export async function attempt<D>(call: (headers: { authorization: string }) => Promise<Answer<D>>) {
  try {
    const { data, error } = await panelCall(call);
    if (data !== null && data !== undefined) return { data };
    const status = typeof error?.status === "number" ? error.status : undefined;
    return { refusal: { status, detail: errorMessage(error) } satisfies Refusal };
  } catch {
    return { refusal: { status: undefined } satisfies Refusal };
  }
}

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
