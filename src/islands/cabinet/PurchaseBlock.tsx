import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { percentToFraction } from "../../../core/money";
import { PayButton } from "../../components/react/PayButton";
import { formatDateFor, formatUnits, percent } from "../../lib/format";
import type { TranslationKey } from "../../lib/i18n/runtime";
import { useTranslation } from "../../lib/i18n/use-translation";
import { priceLabelKey } from "../../lib/price-label";
import { applyPromo, type ProfileData, type ShopData } from "../../stores/cabinet";
import { $cabinetTerms, $chosenPlan, choosePlan } from "../../stores/charge-terms";
import { syncServerClock } from "../../stores/server-clock";

type Props = { shop: ShopData; profile: ProfileData };

const planKeys: Record<number, TranslationKey> = {
  1: "purchase.plan1",
  3: "purchase.plan3",
  6: "purchase.plan6",
  12: "purchase.plan12",
};

/**
 * Spec §2 "Pricing / payment": the plans (1, 3, 6, 12 months, priced by the server),
 * first and later price, discount, promo code, consents, pay; with the trial length and
 * the first full charge's date and amount (DESIGN §13(c)). The order is for the plan
 * chosen here, so what is read is what is bought.
 */
export function PurchaseBlock({ shop, profile }: Props) {
  const { t, language } = useTranslation();
  const terms = useStore($cabinetTerms);
  const plan = useStore($chosenPlan);
  useEffect(() => void syncServerClock(), []);
  const [promoCode, setPromoCode] = useState("");
  const [promoError, setPromoError] = useState<string | undefined>();
  const [isApplying, setIsApplying] = useState(false);
  const months = plan?.months ?? shop.periodMonths;
  const price = plan?.price ?? shop.monthlyPayment;
  const listPrice = plan?.listPrice ?? shop.strikethroughPrice;
  const hasDiscount = shop.discount > 0 && listPrice > price;
  const periodLabel = t(priceLabelKey(price, months));
  // A former customer is told when their subscription ended, not that they never had one.
  const ended = profile.userInfo.endedAt;
  return (
    <section className="card purchase" aria-labelledby="purchase-title">
      <h2 id="purchase-title">
        {ended
          ? t("cabinet.endedTitle", { on: formatDateFor("on", ended, language) })
          : t("cabinet.noSubscriptionBought")}
      </h2>
      {ended && <p data-testid="ended-text">{t("cabinet.endedText")}</p>}
      <fieldset className="plans">
        <legend>{t("purchase.plansTitle")}</legend>
        {shop.plans.map((option) => (
          <label
            key={option.months}
            className={`plans__option${option.months === months ? " plans__option--active" : ""}`}
            data-testid={`plan-${option.months}`}
          >
            <input
              type="radio"
              name="plan"
              value={option.months}
              checked={option.months === months}
              onChange={() => choosePlan(option.months)}
            />
            <span className="plans__name">{t(planKeys[option.months] ?? "purchase.plan1")}</span>
            <span className="plans__price">{formatUnits(option.price, shop.currency)}</span>
            {option.savingPercent > 0 && (
              <span className="plans__saving">
                {t("purchase.planSaving", { percent: percent(percentToFraction(option.savingPercent)) })}
              </span>
            )}
          </label>
        ))}
      </fieldset>
      {terms?.hasTrial !== false && (
        <p className="purchase__first">
          {t("prices.first")}:{" "}
          <strong>{formatUnits(terms?.payNow ?? shop.firstPayment, shop.currency)}</strong>
        </p>
      )}
      <p className="purchase__then">
        {terms?.hasTrial !== false && `${t("purchase.then")} `}
        {hasDiscount && <s className="purchase__strike">{formatUnits(listPrice, shop.currency)}</s>}{" "}
        <strong data-testid="period-price">{formatUnits(price, shop.currency)}</strong> {periodLabel}
      </p>
      {hasDiscount && (
        <p className="purchase__discount">
          {t("cabinet.currentDiscount", { percent: percent(shop.discount, language) })}
        </p>
      )}
      <ul className="purchase__features">
        <li>{t("features.unlimited.title")}</li>
        <li>{t("features.speed.title")}</li>
        <li>{t("features.noAds.title")}</li>
        <li>{t("features.foreign.title")}</li>
      </ul>
      <form
        className="promo-form"
        onSubmit={async (event) => {
          event.preventDefault();
          setIsApplying(true);
          setPromoError(await applyPromo(promoCode.trim()));
          setIsApplying(false);
        }}
      >
        <label className="field">
          <span>{t("purchase.promoLabel")}</span>
          <input
            value={promoCode}
            onChange={(event) => setPromoCode(event.target.value.toUpperCase())}
            maxLength={64}
            aria-invalid={promoError ? true : undefined}
            aria-describedby={promoError ? "promo-error" : undefined}
          />
        </label>
        <button type="submit" className="button button--ghost" disabled={!promoCode.trim() || isApplying}>
          {t("purchase.promoApply")}
        </button>
        {promoError && (
          <p id="promo-error" className="form__error" role="alert">
            {promoError}
          </p>
        )}
      </form>
      {terms && <PayButton tariff={months} terms={terms} />}
    </section>
  );
}
