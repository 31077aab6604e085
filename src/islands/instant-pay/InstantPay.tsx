import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import type { TariffMonths } from "../../../core/prices";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { PayButton } from "../../components/react/PayButton";
import { SiteFooter } from "../../components/react/SiteFooter";
import { formatUnits } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import { priceLabelKey } from "../../lib/price-label";
import {
  $instantTariff,
  $instantTerms,
  $isAnonymousPurchase,
  chooseInstantTariff,
  openInstantPay,
} from "../../stores/instant-pay";

const choices: { months: TariffMonths; key: "prices.month" | "prices.halfYear" | "prices.year" }[] = [
  { months: 1, key: "prices.month" },
  { months: 6, key: "prices.halfYear" },
  { months: 12, key: "prices.year" },
];

/** /instantPay: a quick purchase, anonymous or signed in (spec §2). */
function InstantPayContent() {
  const { t } = useTranslation();
  const tariff = useStore($instantTariff);
  const terms = useStore($instantTerms);
  const isAnonymous = useStore($isAnonymousPurchase);

  useEffect(() => void openInstantPay(), []);

  // The table reads the same terms as the pay button, so an order's answer updates both.
  const price = formatUnits(terms.nextCharge.amount, terms.currency);
  const periodLabel = t(priceLabelKey(terms.nextCharge.amount, tariff));
  return (
    <>
      <main id="main" className="screen">
        <a className="button button--ghost referral__back" href="/">
          {t("instantPay.back")}
        </a>
        <h1>{t("instantPay.title")}</h1>
        <section className="card" aria-label={t("prices.title")}>
          <table className="price-table">
            <tbody>
              <tr>
                <th scope="row">{t("instantPay.first")}</th>
                <td data-testid="instant-first">{formatUnits(terms.payNow, terms.currency)}</td>
              </tr>
              <tr>
                <th scope="row">{t("instantPay.subsequent")}</th>
                <td data-testid="instant-price">
                  {price} {periodLabel}
                </td>
              </tr>
            </tbody>
          </table>
          <fieldset className="segmented">
            <legend>{t("instantPay.period")}</legend>
            {choices.map((choice) => (
              <label
                key={choice.months}
                className={`segmented__option${tariff === choice.months ? " segmented__option--active" : ""}`}
              >
                <input
                  type="radio"
                  name="tariff"
                  checked={tariff === choice.months}
                  onChange={() => chooseInstantTariff(choice.months)}
                />
                {t(choice.key)}
              </label>
            ))}
          </fieldset>
        </section>
        <section className="card" aria-labelledby="benefits-title">
          <h2 id="benefits-title">{t("instantPay.benefits")}</h2>
          <ul className="purchase__features">
            <li>{t("features.unlimited.title")}</li>
            <li>{t("features.speed.title")}</li>
            <li>{t("features.foreign.title")}</li>
            <li>{t("features.noAds.title")}</li>
            <li>{t("features.support.title")}</li>
          </ul>
          <PayButton tariff={tariff} terms={terms} anonymous={isAnonymous} />
        </section>
      </main>
      <SiteFooter />
    </>
  );
}

export function InstantPay() {
  return (
    <I18nBoundary titleKey="pageTitle.instantPay">
      <InstantPayContent />
    </I18nBoundary>
  );
}
