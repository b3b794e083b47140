-- Where the on-issue itinerary sweep has read the event log to (issue 26). It read read.bookings for every issued
-- booking not yet decided (app.itinerary_on_issue): an anti-join over every booking ever issued, on every sweep
-- (every five seconds), growing with the bookings without bound. It now reads the TicketsIssued events after this
-- place, along the feed's index, and moves the place in the same statement to just before the first booking it takes
-- (or to the head of the log when it takes none), so a sweep that dies before deciding its batch leaves it to the
-- next. From the log's beginning, the first sweep passes every TicketsIssued once; those decided before are skipped.
CREATE TABLE app.itinerary_on_issue_cursor (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  transaction_id xid8 NOT NULL,
  global_position bigint NOT NULL
);
INSERT INTO app.itinerary_on_issue_cursor (transaction_id, global_position) VALUES ('0', 0);
