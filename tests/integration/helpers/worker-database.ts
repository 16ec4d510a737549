/** The database the integration worker with this pool id (1 to maxWorkers) uses on PostgreSQL: `<database>_w<id>`. */
export function workerDatabaseUrl(base: string, poolId: string): string {
  const url = new URL(base);
  url.pathname = `/${decodeURIComponent(url.pathname.slice(1))}_w${poolId}`;
  return url.toString();
}
