-- The owner's view of the mail outbox (issue 14, docs/contract/admin.md 'Outbox', decision 0032).
-- last_error_at: when the last failed attempt happened (the SMTP status shows the newest one);
-- resend_of: a copy staff queued of a sent e-mail ("Resend") names its original;
-- requested_at: when staff asked for this row to be sent ("Retry now" or "Resend"): an e-mail kind the owner turned
--   off in Settings › E-mails is still sent then (the owner asked for it by name).
ALTER TABLE email_outbox
  ADD COLUMN last_error_at timestamptz,
  ADD COLUMN resend_of     integer REFERENCES email_outbox (id) ON DELETE SET NULL,
  ADD COLUMN requested_at  timestamptz;

-- At most one copy of a message waits to be sent: a second "Resend" (a double click, two staff) finds it there.
CREATE UNIQUE INDEX email_outbox_one_waiting_copy_idx ON email_outbox (resend_of)
  WHERE resend_of IS NOT NULL AND sent_at IS NULL AND failed_at IS NULL;
-- The outbox screen's filters, newest first.
CREATE INDEX email_outbox_failed_idx ON email_outbox (id DESC) WHERE failed_at IS NOT NULL;
CREATE INDEX email_outbox_sent_idx ON email_outbox (sent_at DESC) WHERE sent_at IS NOT NULL;
