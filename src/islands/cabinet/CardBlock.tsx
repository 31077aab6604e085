import { HoldButton } from "../../components/react/HoldButton";
import { formatDateFor, formatUntil } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import { type ProfileData, removeCard } from "../../stores/cabinet";

/**
 * The saved card and its removal (DESIGN §13(b)): what removing means is said before the
 * hold, so nobody removes it without knowing renewals stop and until when access lasts.
 * Shown while a card is saved, and after its removal to say so.
 */
export function CardBlock({ profile }: { profile: ProfileData }) {
  const { t, language } = useTranslation();
  const { card, userInfo } = profile;
  return (
    <section className="card" aria-labelledby="card-title">
      <h2 id="card-title">{t("cabinet.cardTitle")}</h2>
      {card.isSaved ? (
        <>
          <p data-testid="saved-card">{t("cabinet.cardSaved", { lastFour: card.lastFour ?? "" })}</p>
          <p className="muted">
            {userInfo.subscriptionIsActive && userInfo.expirationDate
              ? t("cabinet.cardRemoveExplained", { until: formatUntil(userInfo.expirationDate, language) })
              : t("cabinet.cardRemoveExplainedNoAccess")}
          </p>
          <HoldButton
            label={t("cabinet.cardRemove")}
            hint={t("cabinet.holdToRemoveCard")}
            variant="danger"
            onConfirm={removeCard}
          />
        </>
      ) : (
        <>
          <p data-testid="saved-card">{t("cabinet.noCardSaved")}</p>
          {card.removedAt && (
            <p className="muted">
              {/* The payer's bank may end SBP autopay: the customer did not remove anything then. */}
              {t(card.removedBy === "bank" ? "cabinet.autopayRevokedOn" : "cabinet.cardRemovedOn", {
                on: formatDateFor("on", card.removedAt, language),
              })}
            </p>
          )}
        </>
      )}
    </section>
  );
}
