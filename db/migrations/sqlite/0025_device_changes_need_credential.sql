-- A device that never had a credential on the nodes changes nothing they hold, so its rows
-- write no allow-list change (no new version, no agent woken): an app activating device
-- after device beyond its slots, or an unlinked one coming back unused, costs the fleet
-- nothing. A write still counts when the device holds or held a credential, or is or was
-- in use: a device in use takes a place in its owner's slot order (devicesBySlot), so its
-- coming and going can move another device in or out of the slots.
DROP TRIGGER access_change_device_insert;
CREATE TRIGGER access_change_device_insert AFTER INSERT ON devices
  WHEN NEW.credential IS NOT NULL OR NEW.is_active = 1 BEGIN
  INSERT INTO access_changes (user_id, node_tag, changed_at)
    VALUES (NEW.user_id, NEW.node_tag, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
DROP TRIGGER access_change_device_update;
CREATE TRIGGER access_change_device_update
  AFTER UPDATE OF credential, node_tag, is_active, detached_at, user_id ON devices
  WHEN OLD.credential IS NOT NULL OR NEW.credential IS NOT NULL OR OLD.is_active = 1 OR NEW.is_active = 1 BEGIN
  INSERT INTO access_changes (user_id, node_tag, changed_at)
    VALUES (NEW.user_id, OLD.node_tag, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
DROP TRIGGER access_change_device_delete;
CREATE TRIGGER access_change_device_delete AFTER DELETE ON devices
  WHEN OLD.credential IS NOT NULL OR OLD.is_active = 1 BEGIN
  INSERT INTO access_changes (user_id, node_tag, changed_at)
    VALUES (OLD.user_id, OLD.node_tag, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
