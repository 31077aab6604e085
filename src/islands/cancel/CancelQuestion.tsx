import type { ReactNode } from "react";
import { HoldButton } from "../../components/react/HoldButton";
import { useTranslation } from "../../lib/i18n/use-translation";

type Props = {
  /** Said before the farewell: whose subscription (the link's screen names the account). */
  lead?: ReactNode;
  /** Why the last hold did not cancel, in the reader's words. */
  failure: string | undefined;
  onConfirm: () => void | Promise<void>;
  /** Where "keep my subscription" goes. */
  keepHref: string;
};

/** The spec's cancel screen: farewell, the question and hold-to-confirm; one for the cabinet and the link. */
export function CancelQuestion({ lead, failure, onConfirm, keepHref }: Props) {
  const { t } = useTranslation();
  return (
    <section className="card cancel" aria-labelledby="cancel-title">
      {lead}
      <p>{t("cancel.farewell")}</p>
      <h1 id="cancel-title">{t("cancel.question")}</h1>
      {failure && (
        <p className="form__error" role="alert">
          {failure}
        </p>
      )}
      <HoldButton
        label={t("cancel.confirm")}
        hint={t("cancel.holdHint")}
        variant="danger"
        onConfirm={onConfirm}
      />
      <a className="button button--ghost" href={keepHref}>
        {t("cancel.keep")}
      </a>
    </section>
  );
}
