-- A node's replaced key (DESIGN §8): the previous key's hash stays, so an agent still using
-- it is told its key was replaced (401 node_key_rotated) rather than that it is unknown, and
-- the panel shows when it last tried. Times are wall-clock milliseconds, like last_seen_at.
ALTER TABLE vpn_nodes ADD COLUMN previous_key_hash TEXT;
ALTER TABLE vpn_nodes ADD COLUMN key_rotated_at INTEGER;
ALTER TABLE vpn_nodes ADD COLUMN previous_key_used_at INTEGER;
CREATE INDEX vpn_nodes_by_previous_key ON vpn_nodes (previous_key_hash);

-- One node key is one agent (DESIGN §8): the agent instance last seen with the key (its
-- X-Agent-Instance, a UUID kept in its state file; '' for callers that send none) and when,
-- by the wall clock. Another instance is refused while that one was heard from within 60 s;
-- the last one refused is kept for the panel: which, when and from which address.
ALTER TABLE vpn_nodes ADD COLUMN agent_instance TEXT;
ALTER TABLE vpn_nodes ADD COLUMN agent_seen_at INTEGER;
ALTER TABLE vpn_nodes ADD COLUMN refused_agent_instance TEXT;
ALTER TABLE vpn_nodes ADD COLUMN refused_agent_at INTEGER;
ALTER TABLE vpn_nodes ADD COLUMN refused_agent_address TEXT;

-- What the node's core is doing, as its agent last reported (DESIGN §8): 'up', or 'down'
-- when the core's API does not answer or refuses calls. NULL: the agent does not say
-- (agents before this field), read as up.
ALTER TABLE vpn_nodes ADD COLUMN core_state TEXT CHECK (core_state IN ('up', 'down'));
