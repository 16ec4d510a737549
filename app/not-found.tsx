import { Link } from "@/components/link";

export default function NotFound() {
  return (
    <main className="mx-auto max-w-lg px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="mt-2 text-slate-600">The page you asked for does not exist or is not yours to see.</p>
      <Link href="/providers" className="btn-primary mt-6">
        Back to the dashboard
      </Link>
    </main>
  );
}
