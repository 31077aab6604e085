-- See the SQLite migration 0027: a device the cabinet connects holds its slot only until
-- pending_until, until its link is used.
ALTER TABLE devices ADD COLUMN pending_until BIGINT;
DROP TRIGGER access_change_device_update ON devices;
CREATE TRIGGER access_change_device_update
  AFTER UPDATE OF credential, node_tag, is_active, detached_at, user_id, pending_until ON devices
  FOR EACH ROW WHEN (OLD.credential IS NOT NULL OR NEW.credential IS NOT NULL OR OLD.is_active = 1 OR NEW.is_active = 1)
  EXECUTE FUNCTION access_change_from_device();
