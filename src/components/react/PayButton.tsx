import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import type { ChargeTerms } from "../../lib/charge-terms";
import { describeTerms } from "../../lib/charge-terms-text";
import { isConsentSkippedThisVisit } from "../../lib/consent-skip";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $orderTrial,
  $purchase,
  resumeSbpPurchase,
  startPurchase,
  tryAnotherCard,
} from "../../stores/payment";
import { loadPaymentOffer } from "../../stores/payment-methods";
import { $sbpWait, stopFollowing } from "../../stores/sbp-payment";
import { ConsentBoxes } from "./ConsentBoxes";
import { PaymentMethodChoice } from "./PaymentMethodChoice";
import { SbpPayment } from "./SbpPayment";

/** An SBP wait this tab had goes on when the pay block shows again, and stops when it goes. */
function useSbpWait(): void {
  useEffect(() => {
    resumeSbpPurchase();
    return stopFollowing;
  }, []);
}

type Props = { tariff: number; terms: ChargeTerms; anonymous?: boolean };

/**
 * What will be charged and when, the consents and the pay button (spec §2 "Pricing /
 * payment", DESIGN §13(c)). Both boxes must be ticked unless this visit came through a
 * /login link with i and j; the terms are stated either way.
 */
export function PayButton({ tariff, terms, anonymous = false }: Props) {
  const { t, language } = useTranslation();
  const purchase = useStore($purchase);
  const isCardRefused = useStore($orderTrial)?.isFullPriceAsked === true;
  const text = describeTerms(terms, t, language);
  const [isSkipped] = useState(isConsentSkippedThisVisit);
  // A consent holds for the terms it named; new terms (tariff, the order's answer) need a new one.
  const [agreedTo, setAgreedTo] = useState<string | undefined>();
  const canBuy = isSkipped || agreedTo === text.consent;
  const isWorking = purchase.state === "working";
  const sbpWait = useStore($sbpWait);
  useEffect(() => void loadPaymentOffer(terms.currency), [terms.currency]);
  useSbpWait();
  const pay = () =>
    void startPurchase({ tariff, period: terms.trialDays, expectedAmount: terms.payNow, anonymous });
  const error = (purchase.state === "changed" || purchase.state === "failed") && (
    <p className="form__error" role="alert">
      {purchase.message}
    </p>
  );
  if (sbpWait.state !== "none")
    return (
      <div className="pay">
        <SbpPayment wait={sbpWait} onNewQr={pay} isWorking={isWorking} />
        {error}
      </div>
    );
  return (
    <div className="pay">
      {text.noTrialReason && (
        <div className="pay__notice" data-testid="no-trial">
          <strong>{t("purchase.noTrialTitle")}</strong>
          <p>{text.noTrialReason}</p>
          {isCardRefused && (
            // The trial was refused for that card only: another card may still start one.
            <button type="button" className="button button--ghost" onClick={tryAnotherCard}>
              {t("purchase.tryAnotherCard")}
            </button>
          )}
        </div>
      )}
      <p className="pay__terms" data-testid="charge-terms">
        {text.summary}
      </p>
      <PaymentMethodChoice isDisabled={isWorking} />
      {isSkipped ? (
        <p className="muted">
          {t("purchase.offerByPaying")}{" "}
          <a href="/offer" target="_blank" rel="noopener">
            {t("purchase.consentOfferLink")}
          </a>
        </p>
      ) : (
        <ConsentBoxes
          key={text.consent}
          consent={text.consent}
          onAgreed={(isAgreed) => setAgreedTo(isAgreed ? text.consent : undefined)}
        />
      )}
      {error}
      <button
        type="button"
        className="button button--primary"
        disabled={!canBuy || isWorking}
        aria-describedby={canBuy ? undefined : "consents-needed"}
        onClick={pay}
      >
        {isWorking ? t("purchase.working") : text.payLabel}
      </button>
      {!canBuy && (
        <p id="consents-needed" className="muted">
          {t("purchase.consentsNeeded")}
        </p>
      )}
    </div>
  );
}
