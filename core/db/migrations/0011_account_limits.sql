-- Account limits that never lock the rightful owner out (docs/decisions/0009-account-limits.md), and the scheduled
-- purge (server/features/purge.ts).
--
-- An account-scoped event (a failed login, a reset e-mail) remembers the client address it came from, so the
-- per-account limits can tell an address that has failed on the account from one that has not, and count reset
-- e-mails per account per requesting address.
ALTER TABLE auth_events ADD COLUMN address text;

-- The purge deletes by age: auth events by their time, guest carts by their last change.
CREATE INDEX auth_events_at_idx ON auth_events (at);
CREATE INDEX carts_guest_updated_idx ON carts (updated_at) WHERE customer_id IS NULL;
