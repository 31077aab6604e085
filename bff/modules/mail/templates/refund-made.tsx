import { Facts, Paragraph } from "./parts";
import type { MailTemplate } from "./template";

/** An operator refunded the current period: how much, for how many payments, and how long the bank may take. */
export const refundMade: MailTemplate<"refund_made"> = ({ data, words }) => {
  const say = words.of("refund_made");
  const amount = words.money(data.refund);
  return {
    subject: say("subject", { amount }),
    heading: say("heading"),
    preview: say("intro"),
    body: (
      <>
        <Paragraph>{say("intro")}</Paragraph>
        <Facts
          facts={[
            [say("amount"), amount],
            [say("date"), words.date(data.refundedAt)],
            [say("payments"), String(data.payments)],
          ]}
        />
        <Paragraph>{say("accessEnded")}</Paragraph>
        <Paragraph>{say("bankTime")}</Paragraph>
        <Paragraph>{say("comeBack")}</Paragraph>
      </>
    ),
  };
};
