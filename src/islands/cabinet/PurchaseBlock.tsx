import { useStore } from "@nanostores/react";
import { useState } from "react";
import { PayButton } from "../../components/react/PayButton";
import { formatUnits, percent } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import { priceLabelKey } from "../../lib/price-label";
import { applyPromo, type ShopData } from "../../stores/cabinet";
import { $period, $tariff } from "../../stores/customer";

type Props = { shop: ShopData };

/** Spec §2 "Pricing / payment": first and later price, discount, promo code, consents, pay. */
export function PurchaseBlock({ shop }: Props) {
  const { t } = useTranslation();
  const period = Number(useStore($period)) || 1;
  const tariff = Number(useStore($tariff)) || shop.periodMonths;
  const [promoCode, setPromoCode] = useState("");
  const [promoError, setPromoError] = useState<string | undefined>();
  const hasDiscount = shop.discount > 0;
  const periodLabel = t(priceLabelKey(shop.monthlyPayment, shop.periodMonths));
  return (
    <section className="card purchase" aria-labelledby="purchase-title">
      <h2 id="purchase-title">{t("cabinet.noSubscriptionBought")}</h2>
      <p className="purchase__first">
        {t("prices.first")}: <strong>{formatUnits(shop.firstPayment, shop.currency)}</strong>
      </p>
      <p className="purchase__then">
        {t("purchase.then")}{" "}
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
      <PayButton
        tariff={tariff}
        period={period}
        price={formatUnits(shop.firstPayment, shop.currency)}
        chargeText={t("purchase.consentCharge", {
          price: formatUnits(shop.monthlyPayment, shop.currency),
          period: periodLabel,
        })}
      />
    </section>
  );
}
