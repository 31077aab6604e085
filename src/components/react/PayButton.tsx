import { useStore } from "@nanostores/react";
import { useState } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";
import { readStorage, storageKeys } from "../../lib/storage-keys";
import { $purchase, startPurchase } from "../../stores/payment";

type Props = { tariff: number; period: number; price: string; chargeText: string; anonymous?: boolean };

/**
 * The consents and the pay button (spec §2 "Pricing / payment"): both boxes must be
 * ticked, unless the buyer came with i and j (a prepared offer link).
 */
export function PayButton({ tariff, period, price, chargeText, anonymous = false }: Props) {
  const { t } = useTranslation();
  const purchase = useStore($purchase);
  const [consentCharge, setConsentCharge] = useState(false);
  const [consentOffer, setConsentOffer] = useState(false);
  const cameWithOffer =
    readStorage(storageKeys.rawPeriod) !== null && readStorage(storageKeys.rawTariff) !== null;
  const canBuy = cameWithOffer || (consentCharge && consentOffer);
  return (
    <div className="pay">
      <label className="checkbox">
        <input
          type="checkbox"
          checked={consentCharge}
          onChange={(event) => setConsentCharge(event.target.checked)}
        />
        <span>{chargeText}</span>
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
      <button
        type="button"
        className="button button--primary"
        disabled={!canBuy || purchase.state === "working"}
        aria-describedby={canBuy ? undefined : "consents-needed"}
        onClick={() => void startPurchase({ tariff, period, anonymous })}
      >
        {purchase.state === "working" ? t("purchase.working") : t("purchase.buy", { price })}
      </button>
      {!canBuy && (
        <p id="consents-needed" className="muted">
          {t("purchase.consentsNeeded")}
        </p>
      )}
      {purchase.state === "failed" && (
        <p className="form__error" role="alert">
          {purchase.message}
        </p>
      )}
    </div>
  );
}
