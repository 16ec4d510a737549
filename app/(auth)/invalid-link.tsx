import { Link } from "@/components/link";

/** A used, expired, replaced or unknown link: one clear page, never an error. */
export function InvalidLink({ title, next }: { title: string; next: { href: string; label: string } }) {
  return (
    <>
      <h1 className="mb-2 text-xl font-semibold">{title}</h1>
      <p className="mb-4 text-sm text-slate-700">This link is no longer valid: it was already used, has expired or was replaced by a newer one.</p>
      <Link className="btn-primary" href={next.href}>
        {next.label}
      </Link>
    </>
  );
}
