-- Batches of node events already stored, by the id the agent gives each (DESIGN §8): one
-- sent again because its answer was lost after the commit is recognised and not counted
-- twice. received_at is wall-clock milliseconds; retention keeps a day of them.
CREATE TABLE node_event_batches (
  node_id BIGINT NOT NULL REFERENCES vpn_nodes (id),
  batch_id TEXT NOT NULL,
  received_at BIGINT NOT NULL,
  PRIMARY KEY (node_id, batch_id)
);
CREATE INDEX node_event_batches_received ON node_event_batches (received_at);
