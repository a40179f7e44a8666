-- A charge or authorization that lands after its attempt was closed (the reconciler judged the call dead and
-- failed the order, giving its stock back) must not pay that order: it is recorded as 'late_captured' and
-- refunded ('refunded', with the processor's refund id). See lateCharge in core/commerce/orders.ts.
ALTER TABLE payment_attempts DROP CONSTRAINT payment_attempts_status_check;
ALTER TABLE payment_attempts ADD CONSTRAINT payment_attempts_status_check
  CHECK (status IN ('started', 'authorized', 'captured', 'voided', 'declined', 'failed', 'late_captured', 'refunded'));
ALTER TABLE payment_attempts ADD COLUMN refund_id text;
CREATE INDEX payment_attempts_late_idx ON payment_attempts (id) WHERE status = 'late_captured';
