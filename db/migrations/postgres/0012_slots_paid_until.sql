-- See the SQLite migration 0023: extra device slots end with the period they were paid for.
ALTER TABLE subscriptions ADD COLUMN slots_paid_until BIGINT;

DROP TRIGGER access_change_subscription_update ON subscriptions;
CREATE TRIGGER access_change_subscription_update
  AFTER UPDATE OF status, end_date, next_charge_at, user_id, extra_devices, slots_paid_until ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION access_change_from_subscription();
