-- Privacy retention (DESIGN §16): connection logs are deleted by age, and the addresses
-- of connections and payments are cut to their network once old enough. The partial
-- indexes hold only rows whose address is still whole, so finding the next ones to cut
-- stays cheap however many cut rows are kept.
CREATE INDEX connection_logs_by_time ON connection_logs (connected_at);
CREATE INDEX connection_logs_whole_ip ON connection_logs (connected_at)
  WHERE user_ip IS NOT NULL AND user_ip NOT LIKE '%/%';
CREATE INDEX payments_whole_ip ON payments (created_at)
  WHERE ip_address IS NOT NULL AND ip_address NOT LIKE '%/%';
