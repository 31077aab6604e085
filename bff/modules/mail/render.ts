import { render, toPlainText } from "@react-email/render";
import type { Language } from "../../../core/languages";
import type { MailContent, MailData, MailKind, MailLinks } from "./kinds";
import { mailWords } from "./mail-words";
import { mailDocument } from "./templates";

/**
 * Renders a message in the customer's language: subject, plain text and HTML.
 * The HTML is React Email's table layout (what Gmail, Outlook and Apple Mail all draw alike);
 * the plain text is derived from the same document, so the two never state different facts.
 * Same input, same bytes: nothing here reads the clock or random numbers.
 */
export async function renderMail<K extends MailKind>(
  kind: K,
  language: Language,
  data: MailData[K],
  links: MailLinks,
): Promise<MailContent> {
  const { subject, document } = mailDocument(kind, language, data, links);
  const html = await render(document);
  return { subject, text: plainText(html, mailWords(language).colon), html };
}

/** The parts of html-to-text's formatter API used here (the package ships no types of its own). */
type TextBuilder = { addLiteral: (text: string) => void };
type TextElement = { children: unknown };
type Walk = (nodes: unknown, builder: TextBuilder) => void;

/** The text part: no wrapping (clients wrap), headings as written, each fact as "label: value". */
function plainText(html: string, colon: string): string {
  return toPlainText(html, {
    selectors: [
      { selector: "h1", options: { uppercase: false, leadingLineBreaks: 1, trailingLineBreaks: 2 } },
      {
        selector: "tr[data-fact=row]",
        format: "block",
        options: { leadingLineBreaks: 1, trailingLineBreaks: 1 },
      },
      { selector: "td[data-fact=label]", format: "factLabel" },
      { selector: "td[data-fact=value]", format: "inline" },
    ],
    formatters: {
      factLabel: (element: TextElement, walk: Walk, builder: TextBuilder) => {
        walk(element.children, builder);
        builder.addLiteral(colon);
      },
    },
  });
}
