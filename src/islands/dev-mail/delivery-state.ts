import type { TranslationKey } from "../../lib/i18n/runtime";

/** What the mailbox says of each delivery state. */
export const stateKeys: Record<"pending" | "sent" | "failed", TranslationKey> = {
  pending: "devMail.statePending",
  sent: "devMail.stateSent",
  failed: "devMail.stateFailed",
};
