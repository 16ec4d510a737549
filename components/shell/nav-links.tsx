"use client";

import { Link } from "@/components/link";
import { usePathname } from "next/navigation";

/** `count`: a number shown beside the label (the disputes needing a response), read aloud with its words. */
export type NavItem = { href: string; label: string; count?: { value: number; words: string } };

export function NavLinks({ items, onNavigate }: { items: NavItem[]; onNavigate?: () => void }) {
  const pathname = usePathname();
  return (
    <ul className="space-y-1">
      {items.map((item) => {
        const active = pathname === item.href || pathname.startsWith(item.href + "/");
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={`block rounded-md px-3 py-2 text-sm font-medium max-md:py-3 ${
                active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"
              }`}
            >
              {item.label}
              {item.count && item.count.value > 0 ? (
                <span
                  className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 tabular-nums"
                  data-testid={`nav-count-${item.href.slice(1)}`}
                >
                  {item.count.value}
                  <span className="sr-only"> {item.count.words}</span>
                </span>
              ) : null}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
