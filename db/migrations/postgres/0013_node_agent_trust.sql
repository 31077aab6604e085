-- A node's replaced key (DESIGN §8): see the SQLite migration 0024 for the reasons.
ALTER TABLE vpn_nodes ADD COLUMN previous_key_hash TEXT;
ALTER TABLE vpn_nodes ADD COLUMN key_rotated_at BIGINT;
ALTER TABLE vpn_nodes ADD COLUMN previous_key_used_at BIGINT;
CREATE INDEX vpn_nodes_by_previous_key ON vpn_nodes (previous_key_hash);

-- One node key is one agent (DESIGN §8): see the SQLite migration 0024.
ALTER TABLE vpn_nodes ADD COLUMN agent_instance TEXT;
ALTER TABLE vpn_nodes ADD COLUMN agent_seen_at BIGINT;
ALTER TABLE vpn_nodes ADD COLUMN refused_agent_instance TEXT;
ALTER TABLE vpn_nodes ADD COLUMN refused_agent_at BIGINT;
ALTER TABLE vpn_nodes ADD COLUMN refused_agent_address TEXT;

-- What the node's core is doing (DESIGN §8): see the SQLite migration 0024.
ALTER TABLE vpn_nodes ADD COLUMN core_state TEXT CHECK (core_state IN ('up', 'down'));
