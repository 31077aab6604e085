import { useStore } from "@nanostores/react";
import { PrepaidBindingSlot } from "../../components/react/PrepaidBindingSlot";
import { useTranslation } from "../../lib/i18n/use-translation";
import { loadCabinet } from "../../stores/cabinet";
import { $email, $uid } from "../../stores/customer";
import { $prepaidOffer, askToAttachFromCabinet, pendingPrepaidToken } from "../../stores/prepaid-binding";

/**
 * A purchase paid in this browser before signing in and not attached (the customer said
 * "Not now", or signed in elsewhere first): the cabinet keeps saying so, with the same
 * question as at sign-in one click away, so a paid purchase is never lost.
 */
export function PendingPurchaseBlock() {
  const { t } = useTranslation();
  // Re-read when the question opens or closes: attaching clears the stored purchase.
  const offer = useStore($prepaidOffer);
  if (!pendingPrepaidToken() && !offer) return null;
  return (
    <>
      {pendingPrepaidToken() && (
        <section className="card" aria-labelledby="pending-purchase-title" data-testid="pending-purchase">
          <h2 id="pending-purchase-title">{t("cabinet.prepaidWaitingTitle")}</h2>
          <p>{t("cabinet.prepaidWaitingText")}</p>
          <button
            type="button"
            className="button button--primary"
            disabled={offer !== undefined}
            onClick={() =>
              askToAttachFromCabinet({ uid: $uid.get(), email: $email.get() }, () => void loadCabinet())
            }
          >
            {t("cabinet.prepaidAttach")}
          </button>
        </section>
      )}
      <PrepaidBindingSlot source="cabinet" />
    </>
  );
}
