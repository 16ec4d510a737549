import { Link } from "@/components/link";

/**
 * The header's bell: the view's open alerts, counted on the server (the layout checks alerts.read
 * before rendering it), linking to the Alerts page. The count is in the link's name for screen readers.
 */
export function AlertsBell({ open }: { open: number }) {
  const words = open === 0 ? "Alerts: none open" : `Alerts: ${open} open`;
  return (
    <Link
      href="/alerts"
      aria-label={words}
      title={words}
      data-testid="alerts-bell"
      className="relative inline-flex min-h-11 min-w-11 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-6"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {open > 0 ? (
        <span
          data-testid="alerts-bell-count"
          className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs font-semibold text-white"
        >
          {open > 99 ? "99+" : open}
        </span>
      ) : null}
    </Link>
  );
}
