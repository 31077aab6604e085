import { useEffect, useState } from "react";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { PayButton } from "../../components/react/PayButton";
import { SiteFooter } from "../../components/react/SiteFooter";
import { defaultPrices, type TariffMonths } from "../../content/prices";
import { api } from "../../lib/api-client";
import { currencyOf } from "../../lib/i18n/languages";
import { useTranslation } from "../../lib/i18n/use-translation";
import { formatMoney } from "../../lib/money";
import { priceLabelKey } from "../../lib/price-label";
import { $email, $period, $uid } from "../../stores/customer";

const choices: { months: TariffMonths; key: "prices.month" | "prices.halfYear" | "prices.year" }[] = [
  { months: 1, key: "prices.month" },
  { months: 6, key: "prices.halfYear" },
  { months: 12, key: "prices.year" },
];

/** /instantPay: a quick purchase, anonymous or signed in (spec §2). */
function InstantPayContent() {
  const { t, language } = useTranslation();
  const [tariff, setTariff] = useState<TariffMonths>(1);
  const currency = currencyOf(language);
  const table = defaultPrices[currency];

  useEffect(() => {
    // The profile check is skipped when no e-mail is stored (spec §5).
    if (!$email.get()) return;
    api.profile
      .post({ email: $email.get(), uid: $uid.get() })
      .then(({ data }) => {
        if (data?.userInfo.subscriptionIsActive) location.assign("/profile");
      })
      .catch((error) => console.error("profile check failed", error));
  }, []);

  const price = formatMoney(table.periods[tariff], currency);
  const periodLabel = t(priceLabelKey(table.periods[tariff] / 100, tariff));
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
                <td data-testid="instant-first">{formatMoney(table.firstPayment, currency)}</td>
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
                  onChange={() => setTariff(choice.months)}
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
          <PayButton
            tariff={tariff}
            period={Number($period.get()) || 1}
            price={formatMoney(table.firstPayment, currency)}
            chargeText={t("purchase.consentCharge", { price, period: periodLabel })}
            anonymous={!$email.get()}
          />
        </section>
      </main>
      <SiteFooter />
    </>
  );
}

export function InstantPay() {
  return (
    <I18nBoundary>
      <InstantPayContent />
    </I18nBoundary>
  );
}
