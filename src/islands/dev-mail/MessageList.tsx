import { formatDateTime } from "../../../core/date-time";
import { useTranslation } from "../../lib/i18n/use-translation";
import { type OutboxMessage, selectMessage } from "../../stores/dev-mail";
import { languageName, stateKeys } from "./delivery-state";

/** The mailbox's messages, newest first: subject, kind, language, date and delivery state. */
export function MessageList({ messages, selectedId }: { messages: OutboxMessage[]; selectedId?: string }) {
  const { t, language } = useTranslation();
  return (
    <nav className="dev-mail__list" aria-label={t("devMail.list")}>
      <ul>
        {messages.map((message) => (
          <li key={message.messageId}>
            <button
              type="button"
              className="dev-mail__item"
              aria-current={message.messageId === selectedId ? "true" : undefined}
              onClick={() => selectMessage(message.messageId)}
            >
              <strong className="dev-mail__subject">{message.subject}</strong>
              <span className="dev-mail__meta">
                <code>{message.kind}</code> · {languageName(message.language, language)} ·{" "}
                <time dateTime={message.createdAt}>{formatDateTime(message.createdAt, language)}</time>
              </span>
              <span className={`badge dev-mail__state dev-mail__state--${message.status}`}>
                {t(stateKeys[message.status])}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
