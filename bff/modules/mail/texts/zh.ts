import type { MailTexts } from "./types";

export const zh: MailTexts = {
  locale: "zh-CN",
  timeZone: "Europe/Moscow",
  atZone: (dateTime) => `${dateTime}（莫斯科时间）`,
  colon: "：",
  days: (count) => `${count} 天`,
  months: (count) => `${count} 个月`,
  card: (lastFour) => `•••• ${lastFour}`,

  layout: {
    cabinetButton: "打开个人中心",
    cabinetLink: "个人中心",
    why: "您收到这封服务邮件，是因为您订阅了 Kannt。",
    questions: "如有疑问，请发邮件至",
  },

  trial_started: {
    subject: ({ day, amount }) => `Kannt 试用已开始：${day}将首次扣款 ${amount}`,
    heading: "试用已开始",
    intro: ({ days }) =>
      `试用期为 ${days}。试用结束后，订阅将自动续期，我们会从您的银行卡扣除第一个完整周期的费用。`,
    trial: "试用期",
    firstCharge: "首次全额扣款",
    amount: "金额",
    plan: "套餐",
    reminder: "每次扣款前，我们都会发邮件提醒您扣款日期和金额。",
    cancel: ({ moment, button }) =>
      `如果改变主意，请在 ${moment}之前取消：打开个人中心，点击“${button}”。这样就不会扣款，访问权限保留到试用期结束。`,
  },

  renewal_notice: {
    subject: ({ day, amount }) => `您的 Kannt 订阅将于${day}续订：${amount}`,
    heading: "订阅即将续订",
    intro: "您的 Kannt 订阅即将自动续订，我们将从您的银行卡扣款：",
    chargeDate: "扣款时间",
    amount: "金额",
    plan: "套餐",
    howToCancel: ({ button }) =>
      `如需取消，请在扣款前打开下方链接或个人中心，点击“${button}”。之后不会再扣款，访问权限保留到已付费周期结束。`,
    cancelLink: "取消链接（7 天内有效）",
    keep: "如需继续订阅，您无需进行任何操作。",
  },

  payment_succeeded: {
    subject: ({ amount }) => `已收到您的 Kannt 付款：${amount}`,
    heading: "付款成功",
    intro: "感谢您的付款，我们已经收到。",
    amount: "金额",
    date: "日期",
    purpose: "用途",
    paidUntil: "已付费至",
    subscription: (plan) => (plan ? `Kannt 订阅（${plan}）` : "Kannt 订阅"),
    device: "额外设备名额",
    receiptButton: "查看收据",
    receiptLink: "收据",
  },

  payment_failed: {
    subject: ({ amount }) => `Kannt 扣款失败：${amount}`,
    heading: "扣款失败",
    intro: "我们未能从您的银行卡扣除 Kannt 订阅费用：付款被拒绝。",
    amount: "金额",
    date: "日期",
    nextAttempt: "下次尝试",
    accessUntil: "访问权限有效期至",
    noRetry: "我们不会再尝试从这张卡扣款。",
    whatToDo: "请确认银行卡余额充足且未过期。您也可以在个人中心删除这张卡，改用其他银行卡付款。",
  },

  subscription_canceled: {
    subject: "您的 Kannt 订阅已取消",
    heading: "自动续订已关闭",
    intro: ({ date }) => `您的 Kannt 订阅已取消，今后不会再扣款。访问权限保留至 ${date}。`,
    resume: ({ button }) => `改变主意了？在此之前，您可以打开个人中心，点击“${button}”，订阅将照常自动续订。`,
  },

  card_removed: {
    subject: "您的银行卡已从 Kannt 删除",
    heading: "银行卡已删除",
    intro: (card) =>
      card ? `您的银行卡 ${card} 已从我们的记录中删除。` : "您的银行卡已从我们的记录中删除。",
    noCharges: "自动续订已关闭，今后不会再扣款。",
    accessUntil: ({ date }) => `访问权限保留至 ${date}。`,
    comeBack: "如需重新使用，请在个人中心重新订阅：需按套餐价格用银行卡付款，不再提供试用。",
    notYou: ({ email }) => `如果银行卡不是您本人删除的，请立即发邮件至 ${email}。`,
  },

  subscription_ended: {
    subject: "您的 Kannt 订阅已结束",
    heading: "订阅已结束",
    intro: ({ date }) => `您的 Kannt 访问权限已于 ${date} 结束。`,
    comeBack: "欢迎随时回来：打开个人中心，重新订阅并用银行卡付款即可。",
  },

  refund_made: {
    subject: ({ amount }) => `Kannt 退款：${amount}`,
    heading: "退款已办理",
    intro: "我们已将您的 Kannt 订阅费用退回银行卡。",
    amount: "退款金额",
    date: "日期",
    payments: "退款笔数",
    accessEnded: "您的 Kannt 访问权限已终止。",
    bankTime: "款项将退回您付款时使用的银行卡，到账时间取决于银行，最长可能需要 60 天。",
    comeBack: "您可以随时在个人中心重新订阅。",
  },
};
