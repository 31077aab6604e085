import { company } from "../../../../core/company";
import { ActionButton, Paragraph } from "./parts";
import type { MailTemplate } from "./template";

/** DESIGN §13(b): the card is gone, nothing more is charged, and coming back means paying by card again. */
export const cardRemoved: MailTemplate<"card_removed"> = ({ data, texts, format, links }) => {
  const words = texts.card_removed;
  const intro = words.intro(data.lastFour === null ? null : texts.card(data.lastFour));
  return {
    subject: words.subject,
    heading: words.heading,
    preview: intro,
    body: (
      <>
        <Paragraph>{intro}</Paragraph>
        <Paragraph>{words.noCharges}</Paragraph>
        {data.accessUntil !== null && (
          <Paragraph>{words.accessUntil({ date: format.moment(data.accessUntil) })}</Paragraph>
        )}
        <Paragraph>{words.comeBack}</Paragraph>
        {/* A removal the customer did not make is a sign someone else is in the account. */}
        <Paragraph>{words.notYou({ email: company.supportEmail })}</Paragraph>
        <ActionButton href={links.cabinetUrl}>{texts.layout.cabinetButton}</ActionButton>
      </>
    ),
  };
};
