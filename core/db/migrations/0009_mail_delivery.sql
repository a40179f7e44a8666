-- What the outbox sender (core/mail/outbox-sender.ts) needs to deliver email_outbox rows through SMTP.
-- attempts: failed tries so far; last_error: a short reason (never the body); next_attempt_at: the back-off;
-- claimed_until: a lease, so two server processes never send the same row at the same time;
-- failed_at: the sender gave up (a permanent rejection, a bad address, or too many tries) — kept, never retried.
ALTER TABLE email_outbox
  ADD COLUMN attempts        integer NOT NULL DEFAULT 0,
  ADD COLUMN last_error      text,
  ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN claimed_until   timestamptz,
  ADD COLUMN failed_at       timestamptz;

-- The sender's claim reads only rows still to deliver, oldest due first.
CREATE INDEX email_outbox_pending_idx ON email_outbox (next_attempt_at, id) WHERE sent_at IS NULL AND failed_at IS NULL;
