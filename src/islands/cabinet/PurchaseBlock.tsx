import { useState } from "react";
import { formatUnits, percent } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import { priceLabelKey } from "../../lib/price-label";
import type { ShopData } from "../../stores/cabinet";

type Props = { shop: ShopData };

/** Spec §2 "Pricing / payment": first and later price, discount, consents, pay. */
export function PurchaseBlock({ shop }: Props) {
  const { t } = useTranslation();
  const [consentCharge, setConsentCharge] = useState(false);
  const [consentOffer, setConsentOffer] = useState(false);
  const hasDiscount = shop.discount > 0;
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
        {t(priceLabelKey(shop.monthlyPayment, shop.periodMonths))}
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
      <label className="checkbox">
        <input
          type="checkbox"
          checked={consentCharge}
          onChange={(event) => setConsentCharge(event.target.checked)}
        />
        <span>
          {t("purchase.consentCharge", {
            price: formatUnits(shop.monthlyPayment, shop.currency),
            period: t(priceLabelKey(shop.monthlyPayment, shop.periodMonths)),
          })}
        </span>
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={consentOffer}
          onChange={(event) => setConsentOffer(event.target.checked)}
        />
        <span>
          {t("purchase.consentOfferBefore")}{" "}
          <a href="/offer" target="_blank" rel="noopener">
            {t("purchase.consentOfferLink")}
          </a>
        </span>
      </label>
      <button type="button" className="button button--primary" disabled>
        {t("purchase.buy", { price: formatUnits(shop.firstPayment, shop.currency) })}
      </button>
    </section>
  );
}
