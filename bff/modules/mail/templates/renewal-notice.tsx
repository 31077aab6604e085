import { ActionButton, Facts, Paragraph, WrittenLink } from "./parts";
import type { MailTemplate } from "./template";

/**
 * DESIGN §13(a), the 2026 rule: before a renewal charge the customer is told its date and
 * amount, how to cancel, and given a link that cancels (signed, valid 7 days).
 */
export const renewalNotice: MailTemplate<"renewal_notice"> = ({ data, texts, format, site }) => {
  const words = texts.renewal_notice;
  const amount = format.money(data.charge);
  const cancelButton = site("cabinet.cancelSubscription");
  return {
    subject: words.subject({ day: format.day(data.chargeAt), amount }),
    heading: words.heading,
    preview: words.intro,
    body: (
      <>
        <Paragraph>{words.intro}</Paragraph>
        <Facts
          facts={[
            [words.chargeDate, format.moment(data.chargeAt)],
            [words.amount, amount],
            [words.plan, texts.months(data.tariffMonths)],
          ]}
        />
        <Paragraph>{words.keep}</Paragraph>
        <Paragraph>{words.howToCancel({ button: cancelButton })}</Paragraph>
        <ActionButton href={data.cancelUrl}>{cancelButton}</ActionButton>
        <WrittenLink label={words.cancelLink} href={data.cancelUrl} colon={texts.colon} />
      </>
    ),
  };
};
