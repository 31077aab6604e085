import { useState } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";
import { emailSlot, TextWithEmail } from "./EmailAddress";

type Props = {
  arrivingEmail: string;
  onContinue: () => void | Promise<void>;
  onDecline: () => void;
};

/**
 * Asked before an entry page signs in the account a link brought, in a browser that holds
 * none (DESIGN §12): a link from anyone must not sign a visitor into someone else's account
 * behind their back.
 */
export function ContinueAsPrompt({ arrivingEmail, onContinue, onDecline }: Props) {
  const { t } = useTranslation();
  const [isContinuing, setIsContinuing] = useState(false);
  return (
    <section className="card prompt" aria-labelledby="continue-title" aria-describedby="continue-text">
      <h1 id="continue-title">
        <TextWithEmail text={t("continueAs.title", { email: emailSlot })} email={arrivingEmail} />
      </h1>
      <p id="continue-text">{t("continueAs.text")}</p>
      <div className="prompt__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={isContinuing}
          onClick={() => {
            setIsContinuing(true);
            void onContinue();
          }}
        >
          {isContinuing ? t("common.loading") : t("continueAs.confirm")}
        </button>
        <button type="button" className="button button--ghost" disabled={isContinuing} onClick={onDecline}>
          {t("continueAs.decline")}
        </button>
      </div>
    </section>
  );
}
