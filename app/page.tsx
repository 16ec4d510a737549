import { redirect } from "next/navigation";
import { homeFor } from "@/lib/auth/permissions";
import { requirePageViewer } from "@/lib/auth/viewer";

export default async function Home() {
  const viewer = await requirePageViewer();
  redirect(homeFor(viewer.user.role));
}
