-- The allow-list holds only as many of a customer's devices in use as the subscription has
-- slots (1 + extra_devices), so buying a slot changes who may connect: the subscription's
-- trigger watches extra_devices too.
DROP TRIGGER access_change_subscription_update;
CREATE TRIGGER access_change_subscription_update
  AFTER UPDATE OF status, end_date, next_charge_at, user_id, extra_devices ON subscriptions BEGIN
  INSERT INTO access_changes (user_id, node_tag, changed_at)
    VALUES (NEW.user_id, NULL, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
