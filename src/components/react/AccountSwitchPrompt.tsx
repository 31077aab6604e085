import { useState } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";

type Props = {
  currentEmail: string;
  arrivingEmail: string;
  onSwitch: () => void | Promise<void>;
  onKeep: () => void;
};

/**
 * Asked before an entry page replaces the account this browser holds with the one a
 * link brought (DESIGN §12): a link must not sign anyone in behind their back.
 */
export function AccountSwitchPrompt({ currentEmail, arrivingEmail, onSwitch, onKeep }: Props) {
  const { t } = useTranslation();
  const [isSwitching, setIsSwitching] = useState(false);
  return (
    <section className="card prompt" aria-labelledby="switch-title" aria-describedby="switch-text">
      <h1 id="switch-title">{t("switch.title")}</h1>
      <p id="switch-text">{t("switch.question", { current: currentEmail, arriving: arrivingEmail })}</p>
      <div className="prompt__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={isSwitching}
          onClick={() => {
            setIsSwitching(true);
            void onSwitch();
          }}
        >
          {isSwitching ? t("common.loading") : t("switch.confirm")}
        </button>
        <button type="button" className="button button--ghost" disabled={isSwitching} onClick={onKeep}>
          {t("switch.keep")}
        </button>
      </div>
    </section>
  );
}
