-- See the SQLite migration 0019: buying a device slot changes who may connect.
DROP TRIGGER access_change_subscription_update ON subscriptions;
CREATE TRIGGER access_change_subscription_update
  AFTER UPDATE OF status, end_date, next_charge_at, user_id, extra_devices ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION access_change_from_subscription();
