-- The saved card of a payment made before an account existed (an anonymous prepaid
-- purchase), carried over to the subscription when the purchase is bound.
ALTER TABLE payments ADD COLUMN card_token TEXT;
ALTER TABLE payments ADD COLUMN card_last_four TEXT;
