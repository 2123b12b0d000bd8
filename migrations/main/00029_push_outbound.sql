-- +goose Up
-- A failed delivery's record kept the first bytes of the push service's
-- answer, and a connection's error; both told whoever read it what
-- answered at an address a client chose. They become what clubd records
-- now: the status alone, or that the push service could not be reached.
UPDATE push_deliveries
   SET last_error = regexp_replace(regexp_replace(last_error,
           '^((gave up after [0-9]+ attempts: )?)push service answered ([0-9]+):.*$', '\1the push service answered \3'),
           '^((gave up after [0-9]+ attempts: )?)send: .*$', '\1the push service could not be reached')
 WHERE last_error IS NOT NULL;
UPDATE push_subscriptions
   SET last_error = regexp_replace(regexp_replace(last_error,
           '^((gave up after [0-9]+ attempts: )?)push service answered ([0-9]+):.*$', '\1the push service answered \3'),
           '^((gave up after [0-9]+ attempts: )?)send: .*$', '\1the push service could not be reached')
 WHERE last_error IS NOT NULL;
