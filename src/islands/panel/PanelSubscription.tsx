import { useState } from "react";
import { HoldButton } from "../../components/react/HoldButton";
import { api } from "../../lib/api-client";
import { useTranslation } from "../../lib/i18n/use-translation";
import { readStorage, storageKeys } from "../../lib/storage-keys";
import { panelCall } from "../../stores/panel-session";
import { PanelLayout } from "./PanelLayout";

function Management() {
  const { t } = useTranslation();
  const [answer, setAnswer] = useState<{ Success: boolean; Message: string } | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const email = readStorage(storageKeys.selectedPersonEmail) ?? "";
  const uid = readStorage(storageKeys.selectedPersonUid) ?? undefined;

  const refund = async () => {
    setAnswer(undefined);
    setFailure(undefined);
    try {
      const { data, error } = await panelCall((headers) =>
        api.panel.refund.post({ email, uid }, { headers }),
      );
      if (data) setAnswer(data);
      else
        setFailure(
          error
            ? ((error.value as { error?: { message?: string } })?.error?.message ?? t("panel.requestFailed"))
            : t("panel.requestFailed"),
        );
    } catch {
      setFailure(t("panel.requestFailed"));
    }
  };

  return (
    <>
      <p>
        <a href="/panel-user">{t("panel.back")}</a> · {email}
      </p>
      <section className="card" aria-labelledby="reduce-title">
        <h2 id="reduce-title">{t("panel.reduceTitle")}</h2>
        <p className="muted">{t("panel.reduceNote")}</p>
        <button type="button" className="button button--ghost" disabled>
          {t("panel.reduceButton")}
        </button>
      </section>
      <section className="card card--warning" aria-labelledby="cancel-user-title">
        <h2 id="cancel-user-title">{t("panel.cancelTitle")}</h2>
        <p>{t("panel.cancelWarning")}</p>
        <HoldButton
          label={t("panel.makeRefund")}
          hint={t("panel.holdToRefund")}
          variant="danger"
          onConfirm={refund}
        />
        {answer && (
          <p role="status" className={answer.Success ? "refund refund--success" : "refund"}>
            {answer.Message}
          </p>
        )}
        {failure && (
          <p role="alert" className="form__error">
            {failure}
          </p>
        )}
      </section>
    </>
  );
}

export function PanelSubscription() {
  return (
    <PanelLayout title={(t) => t("panel.subscriptionTitle")}>
      <Management />
    </PanelLayout>
  );
}
