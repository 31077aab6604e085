import { useStore } from "@nanostores/react";
import { statusDot } from "../../lib/cabinet-view";
import { formatDateFor, formatUntil } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import { changeAccount, type ProfileData } from "../../stores/cabinet";
import { $email, $photoUrl } from "../../stores/customer";

type Props = { profile: ProfileData | undefined };

export function TopBlock({ profile }: Props) {
  const { t, language } = useTranslation();
  const email = useStore($email);
  const photoUrl = useStore($photoUrl);
  const info = profile?.userInfo;
  const dot = statusDot(info?.subscriptionStatus ?? "NOT_ACTIVE", info?.subscriptionIsActive ?? false);
  return (
    <section className="card top-block" aria-label={t("cabinet.account")}>
      {photoUrl ? (
        <img className="avatar" src={photoUrl} alt="" width={56} height={56} referrerPolicy="no-referrer" />
      ) : (
        <span className="avatar avatar--letter" aria-hidden="true">
          {email.slice(0, 1).toUpperCase()}
        </span>
      )}
      <div className="top-block__text">
        <p className="top-block__email" title={email}>
          {email}
        </p>
        <p className="top-block__status">
          <span
            className={`status-dot status-dot--${dot}`}
            data-testid="status-dot"
            data-status={dot}
            aria-hidden="true"
          />
          {info?.subscriptionIsActive && info.expirationDate
            ? t("cabinet.until", { until: formatUntil(info.expirationDate, language) })
            : info?.endedAt
              ? t("cabinet.endedOn", { on: formatDateFor("on", info.endedAt, language) })
              : t("cabinet.noSubscription")}
        </p>
      </div>
      <button type="button" className="button button--ghost" onClick={() => void changeAccount()}>
        {t("cabinet.changeAccount")}
      </button>
    </section>
  );
}
