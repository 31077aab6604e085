import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { PayButton } from "../../components/react/PayButton";
import { formatUnits, percent } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import { priceLabelKey } from "../../lib/price-label";
import { applyPromo, type ShopData } from "../../stores/cabinet";
import { $cabinetTerms } from "../../stores/charge-terms";
import { syncServerClock } from "../../stores/server-clock";

type Props = { shop: ShopData };

/**
 * Spec §2 "Pricing / payment": first and later price, discount, promo code, consents, pay;
 * with the trial length and the first full charge's date and amount (DESIGN §13(c)).
 * The order is for the period the prices shown are for, so what is read is what is bought.
 */
export function PurchaseBlock({ shop }: Props) {
  const { t } = useTranslation();
  const terms = useStore($cabinetTerms);
  useEffect(() => void syncServerClock(), []);
  const [promoCode, setPromoCode] = useState("");
  const [promoError, setPromoError] = useState<string | undefined>();
  const hasDiscount = shop.discount > 0;
  const periodLabel = t(priceLabelKey(shop.monthlyPayment, shop.periodMonths));
  return (
    <section className="card purchase" aria-labelledby="purchase-title">
      <h2 id="purchase-title">{t("cabinet.noSubscriptionBought")}</h2>
      {terms?.hasTrial !== false && (
        <p className="purchase__first">
          {t("prices.first")}: <strong>{formatUnits(shop.firstPayment, shop.currency)}</strong>
        </p>
      )}
      <p className="purchase__then">
        {terms?.hasTrial !== false && `${t("purchase.then")} `}
        {hasDiscount && (
          <s className="purchase__strike">{formatUnits(shop.strikethroughPrice, shop.currency)}</s>
        )}{" "}
        <strong data-testid="period-price">{formatUnits(shop.monthlyPayment, shop.currency)}</strong>{" "}
        {periodLabel}
      </p>
      {hasDiscount && (
        <p className="purchase__discount">
          {t("cabinet.currentDiscount", { percent: percent(shop.discount) })}
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
          setPromoError(await applyPromo(promoCode.trim()));
        }}
      >
        <label className="field">
          <span>{t("purchase.promoLabel")}</span>
          <input
            value={promoCode}
            onChange={(event) => setPromoCode(event.target.value.toUpperCase())}
            maxLength={64}
          />
        </label>
        <button type="submit" className="button button--ghost" disabled={!promoCode.trim()}>
          {t("purchase.promoApply")}
        </button>
        {promoError && (
          <p className="form__error" role="alert">
            {promoError}
          </p>
        )}
      </form>
      {terms && <PayButton tariff={shop.periodMonths} terms={terms} />}
    </section>
  );
}
