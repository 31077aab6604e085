import type { Language } from "../../../../core/languages";
import type { Database } from "../../../../db/database";
import { planPrepaidBinding, prepaidRefusalText } from "./prepaid-binding";

export type PrepaidPreview = {
  /** What attaching does now: adds the bought period to the access the account has, starts it, or is refused. */
  outcome: "extends" | "starts" | "refused" | "bound";
  /** What was bought: the trial's days or the tariff's months. */
  days?: number;
  months?: number;
  /** The end of access once attached (ISO 8601). */
  until?: string;
  /** Why it would be refused, in the customer's language. */
  reason?: string;
  /** A refused 1-unit trial goes back to the card when the customer confirms. */
  isRefundOnConfirm?: boolean;
  /**
   * Extra device slots the account holds that the added time does not pay for (DESIGN §13):
   * how many, and when they end (ISO 8601).
   */
  slotsEnd?: { count: number; until: string };
};

/**
 * What the binding dialog says before the click (DESIGN §13: "adds 1 month to your
 * subscription, to 12 January 2027"): the same rule the binding follows, without writing.
 */
export async function previewPrepaid(
  database: Database,
  userId: number,
  prepaidToken: string,
  language: Language,
  now: number,
): Promise<PrepaidPreview> {
  const plan = await planPrepaidBinding(database, userId, prepaidToken, now);
  if (plan.action === "already-bound") return { outcome: "bound" };
  if (plan.action === "refuse")
    return {
      outcome: "refused",
      reason: prepaidRefusalText(plan.refusal, language),
      ...(plan.refusal === "account-had-trial" ? { isRefundOnConfirm: true } : {}),
    };
  return {
    outcome: plan.action === "extend" ? "extends" : "starts",
    ...plan.bought,
    until: new Date(plan.until).toISOString(),
    ...(plan.slotsEnd
      ? { slotsEnd: { count: plan.slotsEnd.count, until: new Date(plan.slotsEnd.at).toISOString() } }
      : {}),
  };
}
