-- Access on real VPN nodes (DESIGN §8). Each device in use has its own credential (the
-- VLESS/VMess UUID), an opaque tag the nodes' cores know it by (never the customer's e-mail
-- or id) and the token of its subscription URL. Nodes need the credential in clear, so it
-- is kept as the card token is: backups hold it.
ALTER TABLE devices ADD COLUMN credential TEXT;
ALTER TABLE devices ADD COLUMN node_tag TEXT;
ALTER TABLE devices ADD COLUMN sub_token TEXT;
-- What the client app said of itself on its first fetch of the subscription URL.
ALTER TABLE devices ADD COLUMN hwid TEXT;
ALTER TABLE devices ADD COLUMN device_os TEXT;
ALTER TABLE devices ADD COLUMN device_model TEXT;
CREATE UNIQUE INDEX devices_by_credential ON devices (credential);
CREATE UNIQUE INDEX devices_by_node_tag ON devices (node_tag);
CREATE UNIQUE INDEX devices_by_sub_token ON devices (sub_token);

-- What each node last reported of itself, and how far it has applied the allow-list.
ALTER TABLE vpn_nodes ADD COLUMN host TEXT;
ALTER TABLE vpn_nodes ADD COLUMN core TEXT;
ALTER TABLE vpn_nodes ADD COLUMN core_version TEXT;
-- JSON array of the node's managed inbounds (protocol, port, transport, security, ...).
ALTER TABLE vpn_nodes ADD COLUMN inbounds TEXT NOT NULL DEFAULT '[]';
-- Wall-clock milliseconds (not the demo's test clock): "online" is about the real node.
ALTER TABLE vpn_nodes ADD COLUMN last_seen_at INTEGER;
ALTER TABLE vpn_nodes ADD COLUMN applied_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE vpn_nodes ADD COLUMN credentials_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE vpn_nodes ADD COLUMN disabled_at INTEGER;

-- The allow-list's change log: every write that can change who may connect appends a row
-- (the triggers below, so no code path can forget), and agents pull the rows after the
-- version they applied. user_id NULL: everything changed (the demo clock moved), a full
-- resync. node_tag: a device that was deleted, whose tag the nodes must drop.
-- changed_at is wall-clock milliseconds, used only to tell a gap left by a transaction
-- still open (PostgreSQL hands out versions before commit) from one rolled back.
CREATE TABLE access_changes (
  version INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER,
  node_tag TEXT,
  changed_at INTEGER NOT NULL
);

CREATE TRIGGER access_change_device_insert AFTER INSERT ON devices BEGIN
  INSERT INTO access_changes (user_id, node_tag, changed_at)
    VALUES (NEW.user_id, NEW.node_tag, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
CREATE TRIGGER access_change_device_update
  AFTER UPDATE OF credential, node_tag, is_active, detached_at, user_id ON devices BEGIN
  INSERT INTO access_changes (user_id, node_tag, changed_at)
    VALUES (NEW.user_id, OLD.node_tag, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
CREATE TRIGGER access_change_device_delete AFTER DELETE ON devices BEGIN
  INSERT INTO access_changes (user_id, node_tag, changed_at)
    VALUES (OLD.user_id, OLD.node_tag, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
CREATE TRIGGER access_change_subscription_insert AFTER INSERT ON subscriptions BEGIN
  INSERT INTO access_changes (user_id, node_tag, changed_at)
    VALUES (NEW.user_id, NULL, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
CREATE TRIGGER access_change_subscription_update
  AFTER UPDATE OF status, end_date, next_charge_at, user_id ON subscriptions BEGIN
  INSERT INTO access_changes (user_id, node_tag, changed_at)
    VALUES (NEW.user_id, NULL, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;

-- Bytes per device per UTC day and node, as the nodes report them: no destination, no
-- content (DESIGN §8), deleted with the connection logs' retention (§16).
CREATE TABLE device_traffic (
  device_id INTEGER NOT NULL REFERENCES devices (id),
  -- Days since 1970-01-01 UTC.
  day INTEGER NOT NULL,
  node_id INTEGER NOT NULL REFERENCES vpn_nodes (id),
  upload INTEGER NOT NULL DEFAULT 0 CHECK (upload >= 0),
  download INTEGER NOT NULL DEFAULT 0 CHECK (download >= 0),
  PRIMARY KEY (device_id, day, node_id)
) STRICT;
CREATE INDEX device_traffic_by_day ON device_traffic (day);
