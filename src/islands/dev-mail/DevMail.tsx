import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { useTranslation } from "../../lib/i18n/use-translation";
import { $devMail, $selectedMessageId, showMessages } from "../../stores/dev-mail";
import { MessageList } from "./MessageList";
import { MessageView } from "./MessageView";

/**
 * DEMO ONLY: the embedded outbox as a mailbox. Type an address, see every message the
 * service queued for it and read one as the customer would (DESIGN §14).
 */
function Mailbox() {
  const { t, language } = useTranslation();
  const state = useStore($devMail);
  const selectedId = useStore($selectedMessageId);
  const [address, setAddress] = useState(() => new URLSearchParams(location.search).get("to") ?? "");
  // The page's title is built without a language; the tab says the mailbox's name in the reader's.
  // biome-ignore lint/correctness/useExhaustiveDependencies: t changes with language
  useEffect(() => {
    document.title = t("devMail.tabTitle");
  }, [language]);
  // A link with ?to= opens that mailbox at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the address the page opened with
  useEffect(() => {
    if (address.trim()) void showMessages(address);
  }, []);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const url = new URL(location.href);
    url.searchParams.set("to", address.trim());
    history.replaceState(null, "", url);
    void showMessages(address);
  };
  const messages = state.status === "ready" ? state.messages : [];
  const selected = messages.find((message) => message.messageId === selectedId);

  return (
    <main id="main" className="screen dev-mail">
      <p className="demo-badge">{t("devMail.badge")}</p>
      <h1>{t("devMail.title")}</h1>
      <p className="muted">{t("devMail.intro")}</p>
      <form onSubmit={submit} className="dev-mail__search">
        <label className="field">
          <span>{t("devMail.address")}</span>
          <input
            type="email"
            required
            autoComplete="email"
            value={address}
            onChange={(event) => setAddress(event.target.value)}
          />
        </label>
        <button type="submit" className="button button--primary">
          {t("devMail.show")}
        </button>
      </form>
      {state.status === "loading" && <p className="muted">{t("devMail.loading")}</p>}
      {state.status === "failed" && (
        <p className="form__error" role="alert">
          {t("devMail.failed")}
        </p>
      )}
      {state.status === "ready" && messages.length === 0 && (
        <p className="muted">{t("devMail.empty", { address: state.address })}</p>
      )}
      {messages.length > 0 && (
        <div className="dev-mail__layout">
          <MessageList messages={messages} selectedId={selectedId} />
          {selected && <MessageView key={selected.messageId} message={selected} />}
        </div>
      )}
    </main>
  );
}

export function DevMail() {
  return (
    <I18nBoundary>
      <Mailbox />
    </I18nBoundary>
  );
}
