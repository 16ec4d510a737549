import type { Metadata } from "next";
import { Link } from "@/components/link";

export const metadata: Metadata = { title: "Not allowed" };

export default function ForbiddenPage() {
  return (
    <div className="card max-w-xl">
      <h1 className="text-xl font-semibold">You do not have access to this page</h1>
      <p className="mt-2 text-sm text-slate-600">This part of the dashboard is for owners. Ask an owner of your merchant account if you need it.</p>
      <Link href="/" className="btn-secondary mt-4">
        Back to the dashboard
      </Link>
    </div>
  );
}
