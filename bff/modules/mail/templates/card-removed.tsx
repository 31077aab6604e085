import { company } from "../../../../core/company";
import { ActionButton, Paragraph } from "./parts";
import type { MailTemplate } from "./template";

/** DESIGN §13(b): the card is gone, nothing more is charged, and coming back means paying by card again. */
export const cardRemoved: MailTemplate<"card_removed"> = ({ data, words, links }) => {
  const say = words.of("card_removed");
  const intro = data.lastFour === null ? say("intro") : say("introCard", { card: words.card(data.lastFour) });
  return {
    subject: say("subject"),
    heading: say("heading"),
    preview: intro,
    body: (
      <>
        <Paragraph>{intro}</Paragraph>
        <Paragraph>{say("noCharges")}</Paragraph>
        {data.accessUntil !== null && (
          <Paragraph>{say("accessUntil", { date: words.moment(data.accessUntil) })}</Paragraph>
        )}
        <Paragraph>{say("comeBack")}</Paragraph>
        {/* A removal the customer did not make is a sign someone else is in the account. */}
        <Paragraph>{say("notYou", { email: company.supportEmail })}</Paragraph>
        <ActionButton href={links.cabinetUrl}>{words.t("mail.common.cabinetButton")}</ActionButton>
      </>
    ),
  };
};
