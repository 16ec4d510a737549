export function ModeBadge({ mode }: { mode: "test" | "live" }) {
  return mode === "live" ? (
    <span className="badge bg-emerald-100 text-emerald-800">Live</span>
  ) : (
    <span className="badge bg-amber-100 text-amber-900">Test</span>
  );
}

export function StateBadge({ enabled }: { enabled: boolean }) {
  return enabled ? <span className="badge bg-green-100 text-green-800">Enabled</span> : <span className="badge bg-slate-200 text-slate-700">Disabled</span>;
}

const HEALTH_STYLE = {
  healthy: "bg-green-100 text-green-800",
  degraded: "bg-amber-100 text-amber-900",
  failing: "bg-red-100 text-red-800",
} as const;

/** healthy / degraded / failing, written out (colour only groups it). */
export function HealthBadge({ health, testId }: { health: "healthy" | "degraded" | "failing"; testId?: string }) {
  return (
    <span className={`badge ${HEALTH_STYLE[health]}`} data-testid={testId}>
      {health.charAt(0).toUpperCase() + health.slice(1)}
    </span>
  );
}
