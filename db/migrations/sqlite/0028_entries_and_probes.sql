-- Published entries (DESIGN §8): what a subscription lists is not a node's inbound but the
-- operator's entries for it, each with its own address, port, SNI, fingerprint, ALPN and
-- transport options (NULL: the inbound's own), remark, tags, order, audience and switch.
-- Censors block by address, SNI, fingerprint and transport and change what they block
-- every few weeks: an entry changes without touching the node.
CREATE TABLE node_entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  node_id INTEGER NOT NULL REFERENCES vpn_nodes (id),
  inbound_tag TEXT NOT NULL,
  -- The operator's order across every entry: every format lists entries by it.
  position INTEGER NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  address TEXT,
  port INTEGER,
  sni TEXT,
  fingerprint TEXT,
  -- Comma-separated, e.g. 'h2,http/1.1'.
  alpn TEXT,
  path TEXT,
  host_header TEXT,
  service_name TEXT,
  remark TEXT NOT NULL DEFAULT '',
  tags TEXT NOT NULL DEFAULT '',
  -- Comma-separated tariff months ('1,12'); '' is everyone.
  tariffs TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX node_entries_by_node ON node_entries (node_id, inbound_tag);

-- Probe agents (AGENT_MODE=probe) dial every entry from where customers are. Each has a key
-- (kept hashed) and its own credential, which every node holds while the probe is enabled.
CREATE TABLE probes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  key_hash TEXT NOT NULL UNIQUE,
  credential TEXT NOT NULL,
  node_tag TEXT NOT NULL UNIQUE,
  disabled_at INTEGER,
  last_seen_at INTEGER,
  agent_instance TEXT,
  agent_seen_at INTEGER,
  created_at INTEGER NOT NULL
);

-- What each probe last decided of each entry: down after two failures in a row, up after
-- two successes (times are wall clock). streak counts results against the decided state.
CREATE TABLE entry_checks (
  entry_id INTEGER NOT NULL REFERENCES node_entries (id),
  probe_id INTEGER NOT NULL REFERENCES probes (id),
  up INTEGER NOT NULL CHECK (up IN (0, 1)),
  since INTEGER NOT NULL,
  streak INTEGER NOT NULL,
  latency_ms INTEGER,
  last_error TEXT,
  last_error_at INTEGER,
  checked_at INTEGER NOT NULL,
  PRIMARY KEY (entry_id, probe_id)
);
