import { ActionButton, Paragraph } from "./parts";
import type { MailTemplate } from "./template";

/** Access has ended; the way back is the cabinet. */
export const subscriptionEnded: MailTemplate<"subscription_ended"> = ({ data, words, links }) => {
  const say = words.of("subscription_ended");
  const intro = say("intro", { date: words.date(data.endedAt) });
  return {
    subject: say("subject"),
    heading: say("heading"),
    preview: intro,
    body: (
      <>
        <Paragraph>{intro}</Paragraph>
        <Paragraph>{say("comeBack")}</Paragraph>
        <ActionButton href={links.cabinetUrl}>{words.t("mail.common.cabinetButton")}</ActionButton>
      </>
    ),
  };
};
