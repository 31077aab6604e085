-- A node's replaced key (DESIGN §8): see the SQLite migration 0022 for the reasons.
ALTER TABLE vpn_nodes ADD COLUMN previous_key_hash TEXT;
ALTER TABLE vpn_nodes ADD COLUMN key_rotated_at BIGINT;
ALTER TABLE vpn_nodes ADD COLUMN previous_key_used_at BIGINT;
CREATE INDEX vpn_nodes_by_previous_key ON vpn_nodes (previous_key_hash);
