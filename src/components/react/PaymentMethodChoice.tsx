import { useStore } from "@nanostores/react";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $paymentChoice,
  $paymentOffer,
  choosePayment,
  chosenMethod,
  isPhoneMissing,
} from "../../stores/payment-methods";

/**
 * Card or "СБП" (DESIGN §6), shown only when the server offers SBP for this purchase; the
 * SBP choice has the autopay tick, as a card is saved for renewals, and the payer's phone
 * where the terminal needs one.
 */
export function PaymentMethodChoice({ isDisabled }: { isDisabled: boolean }) {
  const { t } = useTranslation();
  const offer = useStore($paymentOffer);
  const choice = useStore($paymentChoice);
  if (!offer?.methods.includes("sbp")) return null;
  const method = chosenMethod(offer, choice);
  const isPhoneWrong = choice.isPhoneChecked && isPhoneMissing(offer, choice);
  return (
    <>
      <fieldset className="segmented" disabled={isDisabled}>
        <legend>{t("purchase.methodLegend")}</legend>
        {offer.methods.map((option) => (
          <label
            key={option}
            className={`segmented__option${option === method ? " segmented__option--active" : ""}`}
          >
            <input
              type="radio"
              name="payment-method"
              checked={option === method}
              onChange={() => choosePayment({ method: option })}
            />
            {t(option === "sbp" ? "purchase.methodSbp" : "purchase.methodCard")}
          </label>
        ))}
      </fieldset>
      {method === "sbp" && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={choice.saveMethod}
            disabled={isDisabled}
            onChange={(event) => choosePayment({ saveMethod: event.target.checked })}
          />
          <span>{t("purchase.sbpAutopay")}</span>
        </label>
      )}
      {method === "sbp" && offer.isPhoneNeeded && (
        <>
          <label className="field">
            <span>{t("purchase.payerPhone")}</span>
            <input
              type="tel"
              autoComplete="tel"
              placeholder="+7 912 345-67-89"
              maxLength={32}
              value={choice.phone}
              disabled={isDisabled}
              onChange={(event) => choosePayment({ phone: event.target.value })}
              aria-invalid={isPhoneWrong || undefined}
              aria-describedby="payer-phone-rule"
            />
          </label>
          {/* The rule is the hint, and the error once a pay attempt found the phone wrong. */}
          <p
            id="payer-phone-rule"
            className={isPhoneWrong ? "form__error" : "muted"}
            role={isPhoneWrong ? "alert" : undefined}
          >
            {t("purchase.payerPhoneRule")}
          </p>
        </>
      )}
    </>
  );
}
