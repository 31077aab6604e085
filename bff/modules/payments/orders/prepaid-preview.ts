import type { Language } from "../../../../core/languages";
import type { Database } from "../../../../db/database";
import type { prepaidPreview } from "./order-model";
import { planPrepaidBinding, prepaidRefusalText } from "./prepaid-binding";

/** PrepaidPreview: inferred from its schema in order-model.ts, the one source of its shape. */
export type PrepaidPreview = typeof prepaidPreview.static;

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
