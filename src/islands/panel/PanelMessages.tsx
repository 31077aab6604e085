import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { formatDateTime } from "../../../core/date-time";
import type { TranslationKey } from "../../lib/i18n/runtime";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $messages,
  $messagesFailed,
  $messagesQuery,
  loadMessages,
  type MessagesPage,
  retryMessages,
  showMessagesPage,
} from "../../stores/panel-messages";
import { Pager } from "./PanelLayout";
import { ScrollRegion } from "./PanelStates";

type Message = MessagesPage["content"][number];

/** The language a message went out in, named in the operator's language ("орыс тілі", not "ru"). */
const languageKey: Record<string, TranslationKey> = {
  ru: "panelMessages.languageRu",
  en: "panelMessages.languageEn",
  zh: "panelMessages.languageZh",
  kk: "panelMessages.languageKk",
};

function LanguageName({ code }: { code: string }) {
  const { t } = useTranslation();
  const key = languageKey[code];
  return <>{key ? t(key) : code}</>;
}

/** Where a message stands: sent when, waiting for which try, or refused. */
function DeliveryState({ message }: { message: Message }) {
  const { t, language } = useTranslation();
  if (message.status === "sent" && message.sentAt)
    return <>{t("panelMessages.sent", { date: formatDateTime(message.sentAt, language) })}</>;
  if (message.status === "failed") return <>{t("panelMessages.failed")}</>;
  return (
    <>
      {t("panelMessages.pending")}
      {message.nextAttemptAt && (
        <>
          <br />
          <span className="muted">
            {t("panelMessages.nextAttempt", { date: formatDateTime(message.nextAttemptAt, language) })}
          </span>
        </>
      )}
    </>
  );
}

/** The messages sent to the customer the operator opened, newest first, with their delivery. */
export function PanelMessages({ userId }: { userId: number }) {
  const { t, language } = useTranslation();
  const { page } = useStore($messagesQuery);
  const result = useStore($messages);
  const isFailed = useStore($messagesFailed);
  useEffect(() => {
    void loadMessages(userId);
  }, [userId]);
  return (
    <section className="card" aria-labelledby="panel-messages">
      <h2 id="panel-messages">{t("panelMessages.title")}</h2>
      {isFailed && (
        <div className="panel-failed" role="alert">
          <p className="form__error">{t("panelMessages.loadFailed")}</p>
          <button type="button" className="button button--ghost" onClick={() => void retryMessages()}>
            {t("panel.retry")}
          </button>
        </div>
      )}
      {!result && !isFailed && <p className="muted">{t("panel.loading")}</p>}
      {result && result.content.length === 0 && <p className="muted">{t("panelMessages.none")}</p>}
      {result && result.content.length > 0 && (
        <ScrollRegion label={t("panelMessages.title")}>
          <table className="panel-table">
            <thead>
              <tr>
                <th>{t("panelMessages.kind")}</th>
                <th>{t("panelMessages.subject")}</th>
                <th>{t("panelMessages.created")}</th>
                <th>{t("panelMessages.state")}</th>
                <th>{t("panelMessages.attempts")}</th>
                <th>{t("panelMessages.lastError")}</th>
              </tr>
            </thead>
            <tbody>
              {result.content.map((message) => (
                <tr key={message.id}>
                  <td>
                    <code>{message.kind}</code> · <LanguageName code={message.language} />
                  </td>
                  {/* Worded in the operator's language: the mail's own went out in `message.language`. */}
                  <td>{message.subjectForReader}</td>
                  <td>{formatDateTime(message.createdAt, language)}</td>
                  <td>
                    <DeliveryState message={message} />
                  </td>
                  <td>{message.attempts}</td>
                  <td>{message.lastError ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {result && (
        <Pager
          page={page}
          totalPages={result.page.totalPages}
          onChange={(next) => void showMessagesPage(next)}
        />
      )}
    </section>
  );
}
