-- A logged request's row (its bodies cut at 16 kB each, most of them 1 to 6 kB together) is written
-- as it is up to 8 kB: no compression and no TOAST table row on the write path, which cost the
-- embedded database about a third of a millisecond per request (lib/request-log/writer.ts).
ALTER TABLE "request_log" SET (toast_tuple_target = 8160);
