import type { ReactNode } from "react";
import type { TranslationKey } from "../../../../core/i18n";
import type { MailData, MailKind, MailLinks } from "../kinds";
import type { MailTexts } from "../texts";
import type { MailFormat } from "../texts/format";

export type TemplateProps<K extends MailKind> = {
  data: MailData[K];
  texts: MailTexts;
  format: MailFormat;
  /** The site's own words, for the names of its buttons, so a mail names them exactly as the cabinet shows them. */
  site: (key: TranslationKey) => string;
  links: MailLinks;
};

/** What one kind of mail says; the layout around it is shared (layout.tsx). */
export type MailParts = {
  subject: string;
  heading: string;
  /** The line mail clients show after the subject in the inbox. */
  preview: string;
  body: ReactNode;
};

export type MailTemplate<K extends MailKind> = (props: TemplateProps<K>) => MailParts;
