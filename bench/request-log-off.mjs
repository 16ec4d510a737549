// Preloaded (node --import) into bench:api's `app-no-log` server only (BENCH_WITHOUT_LOG=1): the
// request log's writer (lib/request-log/writer.ts) finds its state on globalThis already made, with
// a buffer that keeps nothing, so no row is redacted or written, and the app is otherwise the same.
globalThis.__requestLogWriter = {
  buffer: Object.assign([], { push: () => 0 }),
  timer: undefined,
  flushing: undefined,
  dropped: 0,
};
