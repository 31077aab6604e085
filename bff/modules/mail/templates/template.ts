import type { ReactNode } from "react";
import type { MailData, MailKind, MailLinks } from "../kinds";
import type { MailWords } from "../mail-words";

export type TemplateProps<K extends MailKind> = {
  data: MailData[K];
  words: MailWords;
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
