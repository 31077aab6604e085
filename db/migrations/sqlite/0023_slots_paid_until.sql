-- Extra device slots never ride along unpaid (DESIGN §13): when a purchase adds time the
-- slots were not paid for (a prepaid period bound to an account holding slots), the slots
-- end with the period they were paid for. This is that moment; NULL: the slots run with the
-- period and are renewed with it. Past it, the devices beyond the included slot leave the
-- nodes (each entry's remaining time says so) and no renewal charges for them.
ALTER TABLE subscriptions ADD COLUMN slots_paid_until INTEGER;

-- Who may connect depends on it: the subscription's trigger watches it too.
DROP TRIGGER access_change_subscription_update;
CREATE TRIGGER access_change_subscription_update
  AFTER UPDATE OF status, end_date, next_charge_at, user_id, extra_devices, slots_paid_until ON subscriptions BEGIN
  INSERT INTO access_changes (user_id, node_tag, changed_at)
    VALUES (NEW.user_id, NULL, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
