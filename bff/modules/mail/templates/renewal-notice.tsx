import { ActionButton, Facts, Paragraph, WrittenLink } from "./parts";
import type { MailTemplate } from "./template";

/**
 * DESIGN §13(a), the 2026 rule: before a renewal charge the customer is told its date and
 * amount, how to cancel, and given a link that cancels (signed, valid 7 days).
 */
export const renewalNotice: MailTemplate<"renewal_notice"> = ({ data, words }) => {
  const say = words.of("renewal_notice");
  const amount = words.money(data.charge);
  const cancelButton = words.t("cabinet.cancelSubscription");
  return {
    subject: say("subject", { day: words.day(data.chargeAt), amount }),
    heading: say("heading"),
    preview: say("intro"),
    body: (
      <>
        <Paragraph>{say("intro")}</Paragraph>
        <Facts
          facts={[
            [say("chargeDate"), words.moment(data.chargeAt)],
            [say("amount"), amount],
            [say("plan"), words.months(data.tariffMonths)],
          ]}
        />
        <Paragraph>{say("keep")}</Paragraph>
        <Paragraph>{say("howToCancel", { button: cancelButton })}</Paragraph>
        <ActionButton href={data.cancelUrl}>{cancelButton}</ActionButton>
        <WrittenLink label={say("cancelLink")} href={data.cancelUrl} colon={words.colon} />
      </>
    ),
  };
};
