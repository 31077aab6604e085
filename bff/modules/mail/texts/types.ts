/**
 * The words of the customer mails in one language. Every language file is typed with it,
 * so a missing or misnamed entry is a type error. Sentences that carry values are functions:
 * each language places the values where its grammar wants them (Kazakh, for one, would have
 * to inflect a date after "until", so its sentences point to the date in the facts instead).
 */
export type MailTexts = {
  /** Intl locale for dates: en-GB for English, so day, month and a 24-hour clock read as in Europe. */
  locale: string;
  /** DESIGN §14: Moscow for ru, en and zh, Almaty for kk; kept beside `atZone` so the two agree. */
  timeZone: "Europe/Moscow" | "Asia/Almaty";
  /** A moment with its zone named, so a reader abroad knows which clock it is on. */
  atZone: (dateTime: string) => string;
  /** Between a fact's label and its value in the plain text. */
  colon: string;
  days: (count: number) => string;
  months: (count: number) => string;
  card: (lastFour: string) => string;

  layout: {
    cabinetButton: string;
    cabinetLink: string;
    /** Why the customer gets this mail (a service message about their subscription). */
    why: string;
    questions: string;
  };

  trial_started: {
    subject: (values: { day: string; amount: string }) => string;
    heading: string;
    intro: (values: { days: string }) => string;
    trial: string;
    firstCharge: string;
    amount: string;
    plan: string;
    reminder: string;
    cancel: (values: { moment: string; button: string }) => string;
  };

  renewal_notice: {
    subject: (values: { day: string; amount: string }) => string;
    heading: string;
    intro: string;
    chargeDate: string;
    amount: string;
    plan: string;
    howToCancel: (values: { button: string }) => string;
    cancelLink: string;
    keep: string;
  };

  payment_succeeded: {
    subject: (values: { amount: string }) => string;
    heading: string;
    intro: string;
    amount: string;
    date: string;
    purpose: string;
    paidUntil: string;
    subscription: (plan: string | null) => string;
    device: string;
    receiptButton: string;
    receiptLink: string;
  };

  payment_failed: {
    subject: (values: { amount: string }) => string;
    heading: string;
    intro: string;
    amount: string;
    date: string;
    nextAttempt: string;
    accessUntil: string;
    noRetry: string;
    whatToDo: string;
  };

  subscription_canceled: {
    subject: string;
    heading: string;
    intro: (values: { date: string }) => string;
    resume: (values: { button: string }) => string;
  };

  card_removed: {
    subject: string;
    heading: string;
    intro: (card: string | null) => string;
    noCharges: string;
    accessUntil: (values: { date: string }) => string;
    comeBack: string;
    notYou: (values: { email: string }) => string;
  };

  subscription_ended: {
    subject: string;
    heading: string;
    intro: (values: { date: string }) => string;
    comeBack: string;
  };

  refund_made: {
    subject: (values: { amount: string }) => string;
    heading: string;
    intro: string;
    amount: string;
    date: string;
    payments: string;
    accessEnded: string;
    bankTime: string;
    comeBack: string;
  };
};
