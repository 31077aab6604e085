-- A device the cabinet connects is pending until it is used (DESIGN §8, "Connect a new
-- device"): its link is shown at once and its credential is on the nodes, but it holds
-- its slot only until pending_until (a reservation of half an hour, given back at once
-- when the Connect panel closes unused). The app's first fetch of the link, or the
-- customer saying it is added, makes it a device in use (pending_until NULL). NULL for
-- every device that is not pending, those made before this migration included.
ALTER TABLE devices ADD COLUMN pending_until INTEGER;
-- A reservation taken or given back changes how long the credential stays on the nodes.
DROP TRIGGER access_change_device_update;
CREATE TRIGGER access_change_device_update
  AFTER UPDATE OF credential, node_tag, is_active, detached_at, user_id, pending_until ON devices
  WHEN OLD.credential IS NOT NULL OR NEW.credential IS NOT NULL OR OLD.is_active = 1 OR NEW.is_active = 1 BEGIN
  INSERT INTO access_changes (user_id, node_tag, changed_at)
    VALUES (NEW.user_id, OLD.node_tag, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
