import { formatDate, formatUnits, formatUntil, percent } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import { type ProfileData, resumeSubscription, type ShopData } from "../../stores/cabinet";

type Props = { profile: ProfileData; shop: ShopData };

/** ACTIVE: the next charge (or free use at 100%), the discount, and the way to cancel. */
export function NextChargeBlock({ profile, shop }: Props) {
  const { t, language } = useTranslation();
  const { nextTransactionDate, amount } = profile.userInfo;
  return (
    <section className="card" aria-labelledby="next-charge-title">
      <h2 id="next-charge-title">{t("cabinet.nextBilling")}</h2>
      {shop.discount >= 1 || amount === 0 ? (
        <p className="next-charge__free">{t("cabinet.freeUse")}</p>
      ) : (
        <p className="next-charge">
          {t("cabinet.nextCharge", {
            date: formatDate(nextTransactionDate, language),
            amount: formatUnits(amount ?? 0, shop.currency),
          })}
        </p>
      )}
      {shop.discount > 0 && (
        <p>{t("cabinet.currentDiscount", { percent: percent(shop.discount, language) })}</p>
      )}
      <a className="button button--ghost" href="/cancel">
        {t("cabinet.cancelSubscription")}
      </a>
    </section>
  );
}

/**
 * CANCELED but still running: access continues; renewal can be switched back on. Not
 * when the customer removed the card (or the bank ended SBP autopay): a resume would have
 * nothing to renew with, so coming back is a new payment once the period ends (DESIGN §13(b)).
 */
export function CancelledBlock({ profile }: { profile: ProfileData }) {
  const { t, language } = useTranslation();
  const until = formatUntil(profile.userInfo.expirationDate, language);
  if (!profile.card.isSaved && profile.card.removedAt) {
    return (
      <section className="card card--warning" aria-labelledby="cancelled-title">
        <h2 id="cancelled-title">{t("cabinet.cardRemovedTitle")}</h2>
        <p>
          {t(profile.card.removedBy === "bank" ? "cabinet.autopayRevokedText" : "cabinet.cardRemovedText", {
            until,
          })}
        </p>
      </section>
    );
  }
  return (
    <section className="card card--warning" aria-labelledby="cancelled-title">
      <h2 id="cancelled-title">{t("cabinet.cancelledTitle")}</h2>
      <p>{t("cabinet.cancelledText", { until })}</p>
      <button type="button" className="button button--primary" onClick={() => void resumeSubscription()}>
        {t("cabinet.resume")}
      </button>
    </section>
  );
}

export function ReferralTeaser({ shop }: { shop: ShopData }) {
  const { t, language } = useTranslation();
  return (
    <section className="card card--accent" aria-labelledby="referral-title">
      <h2 id="referral-title">{t("cabinet.referralTitle")}</h2>
      <p>{t("cabinet.referralText")}</p>
      {shop.referralDiscount > 0 && (
        <p>{t("cabinet.referralDiscount", { percent: percent(shop.referralDiscount, language) })}</p>
      )}
      <a className="button button--primary" href="/promo">
        {t("cabinet.inviteFriends")}
      </a>
    </section>
  );
}
