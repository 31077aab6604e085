import { useStore } from "@nanostores/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $prepaidOffer,
  attachPendingPurchase,
  declinePendingPurchase,
  type PrepaidOffer,
} from "../../stores/prepaid-binding";
import { I18nBoundary } from "./I18nBoundary";

/**
 * "Attach this purchase to {e-mail}?" after a sign-in while an anonymous paid purchase
 * waits in this browser; only "Attach" binds it (DESIGN §13). Modal, so it can sit over
 * whichever screen finished the sign-in.
 */
export function PrepaidBindingDialog() {
  const offer = useStore($prepaidOffer);
  if (!offer) return null;
  return (
    <I18nBoundary>
      <OfferDialog offer={offer} />
    </I18nBoundary>
  );
}

function OfferDialog({ offer }: { offer: PrepaidOffer }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);
  const isAttaching = offer.step === "attaching";
  const wasRefused = offer.step === "refused";
  return (
    <dialog
      ref={dialog}
      className="card prompt prompt--modal"
      aria-labelledby="prepaid-title"
      // Escape means "not now": the purchase stays unbound and the sign-in goes on.
      onCancel={(event) => {
        event.preventDefault();
        if (!isAttaching) declinePendingPurchase();
      }}
    >
      <h2 id="prepaid-title">{t("prepaid.title")}</h2>
      <p>{t("prepaid.question", { email: offer.email })}</p>
      <p className="muted">{t("prepaid.text")}</p>
      {wasRefused && (
        <p className="form__error" role="alert">
          {t("prepaid.refused", { reason: offer.reason ?? "" })}
        </p>
      )}
      {offer.step === "failed" && (
        <p className="form__error" role="alert">
          {t("prepaid.failed")}
        </p>
      )}
      <div className="prompt__actions">
        {!wasRefused && (
          <button
            type="button"
            className="button button--primary"
            disabled={isAttaching}
            onClick={() => void attachPendingPurchase()}
          >
            {isAttaching ? t("prepaid.attaching") : t("prepaid.confirm")}
          </button>
        )}
        <button
          type="button"
          className="button button--ghost"
          disabled={isAttaching}
          onClick={declinePendingPurchase}
        >
          {wasRefused ? t("prepaid.continue") : t("prepaid.decline")}
        </button>
      </div>
    </dialog>
  );
}
