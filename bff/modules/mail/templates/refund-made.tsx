import { Facts, Paragraph } from "./parts";
import type { MailTemplate } from "./template";

/** An operator refunded the current period: how much, for how many payments, and how long the bank may take. */
export const refundMade: MailTemplate<"refund_made"> = ({ data, texts, format }) => {
  const words = texts.refund_made;
  const amount = format.money(data.refund);
  return {
    subject: words.subject({ amount }),
    heading: words.heading,
    preview: words.intro,
    body: (
      <>
        <Paragraph>{words.intro}</Paragraph>
        <Facts
          facts={[
            [words.amount, amount],
            [words.date, format.date(data.refundedAt)],
            [words.payments, String(data.payments)],
          ]}
        />
        <Paragraph>{words.accessEnded}</Paragraph>
        <Paragraph>{words.bankTime}</Paragraph>
        <Paragraph>{words.comeBack}</Paragraph>
      </>
    ),
  };
};
