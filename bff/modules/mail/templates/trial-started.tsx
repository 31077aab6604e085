import { ActionButton, Facts, Paragraph } from "./parts";
import type { MailTemplate } from "./template";

/** DESIGN §13(c): the trial's length and the exact moment and amount of the first full charge. */
export const trialStarted: MailTemplate<"trial_started"> = ({ data, texts, format, site, links }) => {
  const words = texts.trial_started;
  const amount = format.money(data.firstCharge);
  const moment = format.moment(data.firstChargeAt);
  const intro = words.intro({ days: texts.days(data.trialDays) });
  return {
    subject: words.subject({ day: format.day(data.firstChargeAt), amount }),
    heading: words.heading,
    preview: intro,
    body: (
      <>
        <Paragraph>{intro}</Paragraph>
        <Facts
          facts={[
            [words.trial, texts.days(data.trialDays)],
            [words.firstCharge, moment],
            [words.amount, amount],
            [words.plan, texts.months(data.tariffMonths)],
          ]}
        />
        <Paragraph>{words.reminder}</Paragraph>
        <Paragraph>{words.cancel({ moment, button: site("cabinet.cancelSubscription") })}</Paragraph>
        <ActionButton href={links.cabinetUrl}>{texts.layout.cabinetButton}</ActionButton>
      </>
    ),
  };
};
