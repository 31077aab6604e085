-- See the SQLite migration 0025: a device that never had a credential on the nodes writes
-- no allow-list change.
DROP TRIGGER access_change_device_insert ON devices;
CREATE TRIGGER access_change_device_insert AFTER INSERT ON devices
  FOR EACH ROW WHEN (NEW.credential IS NOT NULL OR NEW.is_active = 1)
  EXECUTE FUNCTION access_change_from_device();
DROP TRIGGER access_change_device_update ON devices;
CREATE TRIGGER access_change_device_update
  AFTER UPDATE OF credential, node_tag, is_active, detached_at, user_id ON devices
  FOR EACH ROW WHEN (OLD.credential IS NOT NULL OR NEW.credential IS NOT NULL OR OLD.is_active = 1 OR NEW.is_active = 1)
  EXECUTE FUNCTION access_change_from_device();
DROP TRIGGER access_change_device_delete ON devices;
CREATE TRIGGER access_change_device_delete AFTER DELETE ON devices
  FOR EACH ROW WHEN (OLD.credential IS NOT NULL OR OLD.is_active = 1)
  EXECUTE FUNCTION access_change_from_device();
