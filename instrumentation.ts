/** Runs once when the server starts: opens the database (taking the data-directory lock) before any request. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startServer } = await import("./lib/server-start");
  await startServer();
}
