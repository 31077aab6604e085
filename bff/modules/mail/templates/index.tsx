import type { ReactElement } from "react";
import { company } from "../../../../core/company";
import type { Language } from "../../../../core/languages";
import type { MailData, MailKind, MailLinks } from "../kinds";
import { mailWords } from "../mail-words";
import { cardRemoved } from "./card-removed";
import { MailLayout } from "./layout";
import { paymentFailed } from "./payment-failed";
import { paymentSucceeded } from "./payment-succeeded";
import { refundMade } from "./refund-made";
import { renewalNotice } from "./renewal-notice";
import { sbpAutopayCanceled } from "./sbp-autopay-canceled";
import { subscriptionCanceled } from "./subscription-canceled";
import { subscriptionEnded } from "./subscription-ended";
import type { MailTemplate } from "./template";
import { trialStarted } from "./trial-started";

const templates: { [K in MailKind]: MailTemplate<K> } = {
  trial_started: trialStarted,
  renewal_notice: renewalNotice,
  payment_succeeded: paymentSucceeded,
  payment_failed: paymentFailed,
  subscription_canceled: subscriptionCanceled,
  card_removed: cardRemoved,
  subscription_ended: subscriptionEnded,
  refund_made: refundMade,
  sbp_autopay_canceled: sbpAutopayCanceled,
};

/** One mail as a React Email document, with its subject. */
export function mailDocument<K extends MailKind>(
  kind: K,
  language: Language,
  data: MailData[K],
  links: MailLinks,
): { subject: string; document: ReactElement } {
  const words = mailWords(language);
  const template: MailTemplate<K> = templates[kind];
  const parts = template({ data, words, links });
  const document = (
    <MailLayout
      language={language}
      subject={parts.subject}
      preview={parts.preview}
      heading={parts.heading}
      words={words}
      links={links}
      companyLine={words.t("footer.company", { legalName: company.legalName, taxNumber: company.taxNumber })}
    >
      {parts.body}
    </MailLayout>
  );
  return { subject: parts.subject, document };
}
