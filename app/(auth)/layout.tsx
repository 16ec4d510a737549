import type { ReactNode } from "react";
import { BrandMark } from "@/components/shell/brand-mark";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-md">
        <div className="mb-6 text-lg">
          <BrandMark className="justify-center" />
        </div>
        <div className="card">{children}</div>
      </div>
    </main>
  );
}
