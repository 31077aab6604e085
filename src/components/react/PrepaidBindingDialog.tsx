import { useStore } from "@nanostores/react";
import { useEffect, useRef } from "react";
import { formatDays } from "../../lib/charge-terms-text";
import { formatUntil } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $prepaidOffer,
  attachPendingPurchase,
  declinePendingPurchase,
  type PrepaidOffer,
  type PrepaidPreview,
} from "../../stores/prepaid-binding";
import { type PrepaidOfferView, prepaidOfferView } from "../../stores/prepaid-offer-view";
import { I18nBoundary } from "./I18nBoundary";

/**
 * "Attach this purchase to {e-mail}?" after a sign-in while an anonymous paid purchase
 * waits in this browser; only "Attach" binds it (DESIGN §13). Modal, so it can sit over
 * whichever screen finished the sign-in.
 */
export function PrepaidBindingDialog({ source = "sign-in" }: { source?: PrepaidOffer["source"] }) {
  const offer = useStore($prepaidOffer);
  if (offer?.source !== source) return null;
  return (
    <I18nBoundary>
      <OfferDialog offer={offer} />
    </I18nBoundary>
  );
}

type T = ReturnType<typeof useTranslation>["t"];

/**
 * What attaching does, said before the click (DESIGN §13): "Adds 1 month to your
 * subscription, to 12 January 2027", the period that was bought.
 */
function describeEffect(preview: PrepaidPreview, t: T, language: string): string | undefined {
  if (preview.outcome !== "extends" && preview.outcome !== "starts") return undefined;
  if (!preview.until) return undefined;
  const months = preview.months;
  const period =
    months === 1 || months === 3 || months === 6 || months === 12
      ? t(`purchase.plan${months}`)
      : formatDays(preview.days ?? 1, t);
  const values = { period, until: formatUntil(preview.until, language).replace(/ /g, "\u00a0") };
  return preview.outcome === "extends" ? t("prepaid.adds", values) : t("prepaid.starts", values);
}

/** DESIGN §13: the account's extra device slots are not paid for by the added time; when they end. */
function describeSlots(preview: PrepaidPreview, t: T, language: string): string | undefined {
  const slots = preview.slotsEnd;
  if (preview.outcome !== "extends" || !slots) return undefined;
  const until = formatUntil(slots.until, language).replace(/ /g, "\u00a0");
  return t("prepaid.slotsEnd", { count: slots.count, until });
}

function OfferDialog({ offer }: { offer: PrepaidOffer }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);
  const isAttaching = offer.step === "attaching";
  const view = prepaidOfferView(offer);
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
      {view.kind === "question" ? <Question offer={offer} /> : <Refusal offer={offer} view={view} />}
      {offer.step === "failed" && (
        <p className="form__error" role="alert">
          {t("prepaid.failed")}
        </p>
      )}
      <div className="prompt__actions">
        {(view.kind === "question" || view.canReturnPayment) && (
          <button
            type="button"
            className="button button--primary"
            disabled={isAttaching}
            onClick={() => void attachPendingPurchase()}
          >
            {view.kind === "refusal"
              ? t("prepaid.confirmRefund")
              : isAttaching
                ? t("prepaid.attaching")
                : t("prepaid.confirm")}
          </button>
        )}
        <button
          type="button"
          className="button button--ghost"
          disabled={isAttaching}
          onClick={declinePendingPurchase}
        >
          {view.kind === "refusal" && view.wasAttempted ? t("prepaid.continue") : t("prepaid.decline")}
        </button>
      </div>
    </dialog>
  );
}

/** "Attach this purchase to {e-mail}?" and what attaching adds. */
function Question({ offer }: { offer: PrepaidOffer }) {
  const { t, language } = useTranslation();
  const effect = offer.preview ? describeEffect(offer.preview, t, language) : undefined;
  const slots = offer.preview ? describeSlots(offer.preview, t, language) : undefined;
  return (
    <>
      <h2 id="prepaid-title">{t("prepaid.title")}</h2>
      <p>{t("prepaid.question", { email: offer.email })}</p>
      <p className="muted">{t("prepaid.text")}</p>
      {effect && <p data-testid="prepaid-effect">{effect}</p>}
      {slots && <p data-testid="prepaid-slots">{slots}</p>}
    </>
  );
}

/** Only that the purchase cannot be (or was not) attached, and the server's reason. */
function Refusal({
  offer,
  view,
}: {
  offer: PrepaidOffer;
  view: Extract<PrepaidOfferView, { kind: "refusal" }>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <h2 id="prepaid-title">{t("prepaid.refusedTitle")}</h2>
      {view.wasAttempted ? (
        <p className="form__error" role="alert">
          {t("prepaid.refused", { reason: view.reason || t("prepaid.refusedUnknown") })}
        </p>
      ) : (
        <p data-testid="prepaid-effect">
          {t("prepaid.willBeRefused", { email: offer.email, reason: view.reason })}
        </p>
      )}
    </>
  );
}
