import { ActionButton, Paragraph } from "./parts";
import type { MailTemplate } from "./template";

/** Auto-renewal is off; access runs to the end of the paid period and can be resumed until then. */
export const subscriptionCanceled: MailTemplate<"subscription_canceled"> = ({ data, words, links }) => {
  const say = words.of("subscription_canceled");
  const intro = say("intro", { date: words.moment(data.accessUntil) });
  return {
    subject: say("subject"),
    heading: say("heading"),
    preview: intro,
    body: (
      <>
        <Paragraph>{intro}</Paragraph>
        <Paragraph>{say("resume", { button: words.t("cabinet.resume") })}</Paragraph>
        <ActionButton href={links.cabinetUrl}>{words.t("mail.common.cabinetButton")}</ActionButton>
      </>
    ),
  };
};
