import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { percentToFraction } from "../../../core/money";
import { formatDate, percent } from "../../lib/format";
import type { TranslationKey } from "../../lib/i18n/runtime";
import { useTranslation } from "../../lib/i18n/use-translation";
import { $invitees, $referralDiscount, type InviteeReason, loadInvitees } from "../../stores/referral";

/** One plain sentence per reason, so the customer knows what would make a friend count. */
export const inviteeReasonKeys: Record<InviteeReason, TranslationKey> = {
  counts: "promo.reasonCounts",
  "not-paid-yet": "promo.reasonNotPaidYet",
  "trial-only": "promo.reasonTrialOnly",
  "not-active": "promo.reasonNotActive",
  "inviters-card": "promo.reasonInvitersCard",
};

function ReferralTotal() {
  const { t, language } = useTranslation();
  const discount = useStore($referralDiscount);
  if (discount === undefined) return null;
  return (
    <p data-testid="referral-total">{t("promo.totalDiscount", { percent: percent(discount, language) })}</p>
  );
}

/** /promo: the friends invited so far, what each takes off the customer's period now, and why not. */
export function InviteeList() {
  const { t, language } = useTranslation();
  const state = useStore($invitees);
  useEffect(() => {
    void loadInvitees();
  }, []);
  return (
    <section
      className="card invitees"
      aria-labelledby="invitees-title"
      aria-busy={state.status === "loading"}
    >
      <h2 id="invitees-title">{t("promo.inviteesTitle")}</h2>
      <ReferralTotal />
      {state.status === "loading" && <p className="muted">{t("promo.inviteesLoading")}</p>}
      {state.status === "failed" && (
        <>
          {/* What failed stays said; the server's own words, when it gave some, follow. */}
          <p role="alert">
            {state.message ? `${t("promo.inviteesFailed")} ${state.message}` : t("promo.inviteesFailed")}
          </p>
          <button type="button" className="button button--ghost" onClick={() => void loadInvitees()}>
            {t("promo.inviteesRetry")}
          </button>
        </>
      )}
      {state.status === "ready" && state.invitees.length === 0 && (
        <p className="muted">{t("promo.inviteesEmpty")}</p>
      )}
      {state.status === "ready" && state.invitees.length > 0 && (
        <ul className="invitees__list">
          {state.invitees.map((invitee) => (
            <li
              key={`${invitee.email}-${invitee.invitedAt}`}
              className="invitees__item"
              data-reason={invitee.reason}
            >
              <span className="invitees__email">{invitee.email}</span>
              <span className="muted">
                {t("promo.invitedOn", { date: formatDate(invitee.invitedAt, language) })}
              </span>
              <span className={invitee.counts ? "badge badge--active" : "badge"}>
                {t(inviteeReasonKeys[invitee.reason], {
                  percent: percent(percentToFraction(invitee.discountPercent), language),
                })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
