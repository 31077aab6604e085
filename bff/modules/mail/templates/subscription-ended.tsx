import { ActionButton, Paragraph } from "./parts";
import type { MailTemplate } from "./template";

/** Access has ended; the way back is the cabinet. */
export const subscriptionEnded: MailTemplate<"subscription_ended"> = ({ data, texts, format, links }) => {
  const words = texts.subscription_ended;
  const intro = words.intro({ date: format.date(data.endedAt) });
  return {
    subject: words.subject,
    heading: words.heading,
    preview: intro,
    body: (
      <>
        <Paragraph>{intro}</Paragraph>
        <Paragraph>{words.comeBack}</Paragraph>
        <ActionButton href={links.cabinetUrl}>{texts.layout.cabinetButton}</ActionButton>
      </>
    ),
  };
};
