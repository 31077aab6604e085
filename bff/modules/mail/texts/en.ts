import type { MailTexts } from "./types";

const plural = (count: number, one: string, other: string) => `${count} ${count === 1 ? one : other}`;

export const en: MailTexts = {
  locale: "en-GB",
  timeZone: "Europe/Moscow",
  atZone: (dateTime) => `${dateTime} (Moscow time)`,
  colon: ": ",
  days: (count) => plural(count, "day", "days"),
  months: (count) => plural(count, "month", "months"),
  card: (lastFour) => `•••• ${lastFour}`,

  layout: {
    cabinetButton: "Open your personal cabinet",
    cabinetLink: "Personal cabinet",
    why: "You are receiving this service e-mail because you have a Kannt subscription.",
    questions: "Questions? Write to us at",
  },

  trial_started: {
    subject: ({ day, amount }) => `Your Kannt trial has started: first charge of ${amount} on ${day}`,
    heading: "Your trial has started",
    intro: ({ days }) =>
      `The trial lasts ${days}. When it ends, your subscription carries on automatically and we charge your card for the first full period.`,
    trial: "Trial",
    firstCharge: "First full charge",
    amount: "Amount",
    plan: "Plan",
    reminder: "Before every charge we e-mail you a reminder with its date and amount.",
    cancel: ({ moment, button }) =>
      `Changed your mind? Cancel before ${moment}: open your personal cabinet and press “${button}”. Nothing will be charged, and your access stays open until the trial ends.`,
  },

  renewal_notice: {
    subject: ({ day, amount }) => `Your Kannt subscription renews on ${day}: ${amount}`,
    heading: "Your subscription renews soon",
    intro: "Your Kannt subscription is about to renew, and we will charge your card:",
    chargeDate: "Charge date",
    amount: "Amount",
    plan: "Plan",
    howToCancel: ({ button }) =>
      `To cancel, open the link below or your personal cabinet and press “${button}” before the charge. Nothing more will be charged, and your access stays open until the end of the paid period.`,
    cancelLink: "Cancellation link (valid for 7 days)",
    keep: "To keep your subscription, you do not need to do anything.",
  },

  payment_succeeded: {
    subject: ({ amount }) => `Kannt payment received: ${amount}`,
    heading: "Payment received",
    intro: "Thank you. Your payment has gone through.",
    amount: "Amount",
    date: "Date",
    purpose: "For",
    paidUntil: "Paid until",
    subscription: (plan) => (plan ? `Kannt subscription, ${plan}` : "Kannt subscription"),
    device: "Extra device slot",
    receiptButton: "View receipt",
    receiptLink: "Receipt",
  },

  payment_failed: {
    subject: ({ amount }) => `Kannt payment of ${amount} was declined`,
    heading: "Payment declined",
    intro: "We could not charge your card for your Kannt subscription: the payment was declined.",
    amount: "Amount",
    date: "Date",
    nextAttempt: "Next attempt",
    accessUntil: "Access until",
    noRetry: "We will not try to charge this card again.",
    whatToDo:
      "Please make sure the card has enough funds and has not expired. You can also remove this card in your personal cabinet and pay with another one.",
  },

  subscription_canceled: {
    subject: "Your Kannt subscription is cancelled",
    heading: "Auto-renewal is off",
    intro: ({ date }) =>
      `Your Kannt subscription is cancelled: nothing more will be charged. Your access stays open until ${date}.`,
    resume: ({ button }) =>
      `Changed your mind? Until then, open your personal cabinet and press “${button}”, and the subscription will renew as before.`,
  },

  card_removed: {
    subject: "Your card has been removed from Kannt",
    heading: "Card removed",
    intro: (card) =>
      card
        ? `Your card ${card} has been removed from our records.`
        : "Your card has been removed from our records.",
    noCharges: "Auto-renewal is off, and nothing more will be charged.",
    accessUntil: ({ date }) => `Your access stays open until ${date}.`,
    comeBack:
      "To come back, subscribe again in your personal cabinet: you pay by card at the plan's price, without a new trial.",
    notYou: ({ email }) => `If you did not remove the card, write to us at once at ${email}.`,
  },

  subscription_ended: {
    subject: "Your Kannt subscription has ended",
    heading: "Your subscription has ended",
    intro: ({ date }) => `Your access to Kannt ended on ${date}.`,
    comeBack:
      "We would be glad to have you back: open your personal cabinet and subscribe again, paying by card.",
  },

  refund_made: {
    subject: ({ amount }) => `Kannt refund: ${amount}`,
    heading: "Refund issued",
    intro: "We have refunded your Kannt payments to your card.",
    amount: "Refunded",
    date: "Date",
    payments: "Payments refunded",
    accessEnded: "Your access to Kannt has ended.",
    bankTime:
      "The money goes back to the card you paid with. How soon it arrives depends on your bank: it can take up to 60 days.",
    comeBack: "You can subscribe again at any time in your personal cabinet.",
  },
};
