import { useState } from "react";
import { formatDateTime } from "../../../core/date-time";
import { useTranslation } from "../../lib/i18n/use-translation";
import type { OutboxMessage } from "../../stores/dev-mail";
import { languageName, stateKeys } from "./delivery-state";

/**
 * One message as the customer would see it: its HTML in a frame with every sandbox
 * restriction (no scripts, no forms, an origin of its own), or its plain text.
 */
export function MessageView({ message }: { message: OutboxMessage }) {
  const { t, language } = useTranslation();
  const [tab, setTab] = useState<"html" | "text">("html");
  const tabs = [
    ["html", t("devMail.html")],
    ["text", t("devMail.text")],
  ] as const;
  return (
    <article className="card dev-mail__message" aria-labelledby="dev-mail-subject">
      <h2 id="dev-mail-subject">{message.subject}</h2>
      <dl className="dev-mail__headers">
        <div>
          <dt>{t("devMail.to")}</dt>
          <dd>{message.to}</dd>
        </div>
        <div>
          <dt>{t("devMail.kind")}</dt>
          <dd>
            <code>{message.kind}</code> · {languageName(message.language, language)}
          </dd>
        </div>
        <div>
          <dt>{t("devMail.created")}</dt>
          <dd>{formatDateTime(message.createdAt, language)}</dd>
        </div>
        <div>
          <dt>{t("devMail.state")}</dt>
          <dd>
            {t(stateKeys[message.status])}
            {message.sentAt && ` · ${formatDateTime(message.sentAt, language)}`}
          </dd>
        </div>
        <div>
          <dt>{t("devMail.messageId")}</dt>
          <dd>
            <code>{`<${message.messageId}>`}</code>
          </dd>
        </div>
      </dl>
      <div role="tablist" className="dev-mail__tabs" aria-label={t("devMail.views")}>
        {tabs.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`dev-mail-tab-${id}`}
            aria-selected={tab === id}
            aria-controls="dev-mail-panel"
            className={`button ${tab === id ? "button--primary" : "button--ghost"}`}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="dev-mail-panel" aria-labelledby={`dev-mail-tab-${tab}`}>
        {tab === "html" ? (
          <iframe
            className="dev-mail__frame"
            title={t("devMail.frameTitle", { subject: message.subject })}
            sandbox=""
            srcDoc={message.html}
          />
        ) : (
          <pre className="dev-mail__text">{message.text}</pre>
        )}
      </div>
    </article>
  );
}
