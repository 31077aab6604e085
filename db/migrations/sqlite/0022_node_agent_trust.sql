-- A node's replaced key (DESIGN §8): the previous key's hash stays, so an agent still using
-- it is told its key was replaced (401 node_key_rotated) rather than that it is unknown, and
-- the panel shows when it last tried. Times are wall-clock milliseconds, like last_seen_at.
ALTER TABLE vpn_nodes ADD COLUMN previous_key_hash TEXT;
ALTER TABLE vpn_nodes ADD COLUMN key_rotated_at INTEGER;
ALTER TABLE vpn_nodes ADD COLUMN previous_key_used_at INTEGER;
CREATE INDEX vpn_nodes_by_previous_key ON vpn_nodes (previous_key_hash);
