-- Every cancelled subscription becomes EXPIRED once its paid period has run out (DESIGN §5),
-- not only those whose card was removed: the renewal pass finds them by their end.
CREATE INDEX subscriptions_cancelled_ending ON subscriptions (end_date) WHERE status = 'CANCELED';
