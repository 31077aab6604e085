import { useStore } from "@nanostores/react";
import type { ReactNode } from "react";
import { emailSlot, TextWithEmail } from "../../components/react/EmailAddress";
import { SiteFooter } from "../../components/react/SiteFooter";
import { Spinner } from "../../components/react/Spinner";
import { formatUntil } from "../../lib/format";
import type { TranslationKey } from "../../lib/i18n/runtime";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $cabinetLink,
  $cancelLink,
  $cancelLinkError,
  type CancelLinkRefusal,
  confirmCancelLink,
  openCancelLink,
} from "../../stores/cancel-link";
import { CancelQuestion } from "./CancelQuestion";

const refusalTitles: Record<CancelLinkRefusal, TranslationKey> = {
  invalid: "cancel.linkInvalidTitle",
  "nothing-to-cancel": "cancel.linkNothingTitle",
  later: "cancel.linkLaterTitle",
};

/** The way on from every outcome: the cabinet, or signing in to it. */
function CabinetLink({ variant = "primary" }: { variant?: "primary" | "ghost" }) {
  const { t } = useTranslation();
  const cabinet = useStore($cabinetLink);
  return (
    <a className={`button button--${variant}`} href={cabinet.href}>
      {t(cabinet.isSignedIn ? "cancel.linkCabinet" : "cancel.linkSignIn")}
    </a>
  );
}

/** An outcome in a card: a heading, what it means, and the way on. */
function Outcome({ title, text, alert = false }: { title: string; text: string; alert?: boolean }) {
  return (
    <section className="card cancel" aria-labelledby="cancel-title">
      <h1 id="cancel-title">{title}</h1>
      <p role={alert ? "alert" : "status"}>{text}</p>
      <CabinetLink />
    </section>
  );
}

/**
 * /cancel?token=… opened from a renewal notice, in any browser, signed in or not: the
 * account is read through the token, and cancelling needs only the hold to confirm.
 */
export function CancelByLink() {
  const { t, language } = useTranslation();
  const state = useStore($cancelLink);
  const cancelFailure = useStore($cancelLinkError);
  const cabinet = useStore($cabinetLink);
  const accessUntil = (endDate: string | null) =>
    endDate
      ? t("cancel.linkAccessUntil", { until: formatUntil(endDate, language) })
      : t("cancel.linkNoCharges");

  let content: ReactNode;
  switch (state.step) {
    case "loading":
      content = <Spinner label={t("common.loading")} />;
      break;
    case "ready":
      content = (
        <CancelQuestion
          lead={
            <p>
              <TextWithEmail text={t("cancel.linkAccount", { email: emailSlot })} email={state.email} />
            </p>
          }
          failure={cancelFailure}
          onConfirm={confirmCancelLink}
          keepHref={cabinet.isSignedIn ? cabinet.href : "/"}
        />
      );
      break;
    case "cancelled":
      content = <Outcome title={t("cancel.linkDoneTitle")} text={accessUntil(state.endDate)} />;
      break;
    case "already-cancelled":
      content = (
        <Outcome
          title={t("cancel.linkAlreadyTitle", { email: state.email })}
          text={accessUntil(state.endDate)}
        />
      );
      break;
    case "not-active":
      content = (
        <Outcome
          title={t("cancel.linkNothingTitle")}
          text={t("cancel.linkNotActive", { email: state.email })}
        />
      );
      break;
    case "refused":
      content = (
        <Outcome
          title={t(refusalTitles[state.reason])}
          text={state.message ?? t("cancel.linkInvalid")}
          alert
        />
      );
      break;
    case "failed":
      content = (
        <section className="card cancel" aria-labelledby="cancel-title">
          <h1 id="cancel-title">{t("cancel.linkFailedTitle")}</h1>
          <p role="alert">
            {t(state.cause === "server" ? "cancel.linkLoadFailedServer" : "cancel.linkLoadFailed")}
          </p>
          <button type="button" className="button button--primary" onClick={() => void openCancelLink()}>
            {t("cancel.linkRetry")}
          </button>
          <CabinetLink variant="ghost" />
        </section>
      );
      break;
  }
  return (
    <>
      <main id="main" className="screen screen--center">
        {content}
      </main>
      <SiteFooter />
    </>
  );
}
