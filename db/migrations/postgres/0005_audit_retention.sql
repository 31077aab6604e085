-- Privacy retention (DESIGN §16) also cuts the address of audit entries a customer caused
-- (no operator: deleting their own account) once old enough; operators' entries keep theirs.
-- Like the indexes of the retention migration before, this one holds only the entries still
-- to cut, so finding them never walks the operators' entries that are kept.
CREATE INDEX audit_log_whole_customer_ip ON audit_log (created_at)
  WHERE operator_id IS NULL AND ip_address IS NOT NULL AND ip_address NOT LIKE '%/%';
