import type { TranslationKey } from "../../lib/i18n/runtime";

/** What the mailbox says of each delivery state. */
export const stateKeys: Record<"pending" | "sent" | "failed", TranslationKey> = {
  pending: "devMail.statePending",
  sent: "devMail.stateSent",
  failed: "devMail.stateFailed",
};

/** A message's language by its name in the reader's language ("русский", not "ru"). */
export function languageName(code: string, readerLanguage: string): string {
  try {
    return new Intl.DisplayNames([readerLanguage], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
}
