import type { Language } from "../../../src/lib/i18n/languages";
import type { MailContent, MailData, MailKind, MailLinks } from "./kinds";

/**
 * Renders a message in the customer's language: subject, plain text and HTML.
 * PLACEHOLDER until the templates land: states the facts as JSON.
 */
export async function renderMail<K extends MailKind>(
  kind: K,
  language: Language,
  data: MailData[K],
  links: MailLinks,
): Promise<MailContent> {
  const text = `${kind} (${language})\n${JSON.stringify(data)}\n${links.cabinetUrl}`;
  return { subject: kind, text, html: `<pre>${Bun.escapeHTML(text)}</pre>` };
}
