import { ActionButton, Paragraph } from "./parts";
import type { MailTemplate } from "./template";

/**
 * The payer's bank ended the SBP autopay binding (revoked or closed in its app): as after a
 * card removal (DESIGN §13(b)) nothing more is charged and access runs to the end of the
 * paid period. The customer did not do this here, so the mail says who did, what it means
 * for access, and how to pay again.
 */
export const sbpAutopayCanceled: MailTemplate<"sbp_autopay_canceled"> = ({ data, words, links }) => {
  const say = words.of("sbp_autopay_canceled");
  return {
    subject: say("subject"),
    heading: say("heading"),
    preview: say("intro"),
    body: (
      <>
        <Paragraph>{say("intro")}</Paragraph>
        <Paragraph>{say("noCharges")}</Paragraph>
        <Paragraph>
          {data.accessUntil === null
            ? say("accessEnded")
            : say("accessUntil", { date: words.moment(data.accessUntil) })}
        </Paragraph>
        <Paragraph>{say("payAgain")}</Paragraph>
        <Paragraph>{say("whyAsk")}</Paragraph>
        <ActionButton href={links.cabinetUrl}>{words.t("mail.common.cabinetButton")}</ActionButton>
      </>
    ),
  };
};
