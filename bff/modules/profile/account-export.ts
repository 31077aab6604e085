import { isoTime } from "../../../core/date-time";
import type { Database } from "../../../db/database";
import { accountData } from "../../../db/queries/account-data";
import type { UserRow } from "../../../db/queries/users";
import { dayMs } from "../../platform/calendar";
import { paymentHistoryOf } from "../payments/receipts/payment-history";

/** Every payment, not the cabinet's latest 50. */
const allPayments = 100_000;

/**
 * Everything the service keeps about one customer, as JSON they can download (DESIGN
 * §16). Other people's data stays out: of the friends they invited, only how many.
 */
export async function exportAccount(database: Database, user: UserRow, now: number) {
  const [subscriptions, records, devices, traffic, connections, mails, invitees, isInvited, history] = [
    await accountData.subscriptions(database, user.id),
    await accountData.paymentRecords(database, user.id),
    await accountData.devices(database, user.id),
    await accountData.traffic(database, user.id),
    await accountData.connections(database, user.id),
    await accountData.mails(database, user.id),
    await accountData.invitees(database, user.id),
    await accountData.isInvited(database, user.id),
    await paymentHistoryOf(database, user.id, allPayments),
  ];
  return {
    exportedAt: isoTime(now),
    account: {
      email: user.email,
      signIn: user.provider_id,
      providerUserId: user.uid,
      language: user.language,
      currency: user.currency,
      referralCode: user.invitation_code,
      createdAt: isoTime(user.created_at),
    },
    subscriptions: subscriptions.map((row) => ({
      status: row.status,
      tariffMonths: row.tariff_months,
      trialDays: row.trial_days,
      currency: row.currency,
      extraDevices: row.extra_devices,
      startDate: isoTime(row.start_date),
      endDate: isoTime(row.end_date),
      nextChargeAt: isoTime(row.next_charge_at),
      savedCardLastFour: row.card_last_four,
      cardRemovedAt: isoTime(row.card_removed_at),
      createdAt: isoTime(row.created_at),
    })),
    payments: history.payments,
    // What each payment row keeps of where it was made from and the card that paid.
    paymentRecords: records.map((row) => ({
      invoiceId: row.invoice_id,
      createdAt: isoTime(row.created_at),
      address: row.ip_address,
      cardFirstSix: row.card_first_six,
      cardLastFour: row.card_last_four,
      cardExpiry: row.card_exp_date,
    })),
    devices: devices.map((row) => ({
      deviceId: row.device_id,
      deviceName: row.device_name,
      platform: row.platform,
      isActive: row.is_active === 1,
      createdAt: isoTime(row.created_at),
      firstActivationAt: isoTime(row.first_activation_at),
      detachedAt: isoTime(row.detached_at),
      // What the app said of itself on its first fetch of the subscription link.
      hardwareId: row.hwid,
      os: row.device_os,
      model: row.device_model,
    })),
    // Bytes each device moved per day (no destination, no content: DESIGN §8).
    traffic: traffic.map((row) => ({
      deviceId: row.device_id,
      date: new Date(Number(row.day) * dayMs).toISOString().slice(0, 10),
      upload: Number(row.upload),
      download: Number(row.download),
    })),
    connections: connections.map((row) => ({
      server: row.server_name,
      connectedAt: isoTime(row.connected_at),
      address: row.user_ip,
      success: row.success === 1,
    })),
    emails: mails.map((row) => ({
      kind: row.kind,
      status: row.status,
      createdAt: isoTime(row.created_at),
      sentAt: isoTime(row.sent_at),
    })),
    invitations: { invitedByAFriend: isInvited, friendsInvited: invitees },
  };
}
