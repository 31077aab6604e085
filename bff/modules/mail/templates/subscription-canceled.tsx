import { ActionButton, Paragraph } from "./parts";
import type { MailTemplate } from "./template";

/** Auto-renewal is off; access runs to the end of the paid period and can be resumed until then. */
export const subscriptionCanceled: MailTemplate<"subscription_canceled"> = ({
  data,
  texts,
  format,
  site,
  links,
}) => {
  const words = texts.subscription_canceled;
  const intro = words.intro({ date: format.moment(data.accessUntil) });
  return {
    subject: words.subject,
    heading: words.heading,
    preview: intro,
    body: (
      <>
        <Paragraph>{intro}</Paragraph>
        <Paragraph>{words.resume({ button: site("cabinet.resume") })}</Paragraph>
        <ActionButton href={links.cabinetUrl}>{texts.layout.cabinetButton}</ActionButton>
      </>
    ),
  };
};
