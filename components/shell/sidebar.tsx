"use client";

import { useState } from "react";
import { BrandMark } from "./brand-mark";
import { NavLinks, type NavItem } from "./nav-links";

/** Sidebar on wide screens, a toggled drawer on narrow ones. */
export function Sidebar({ items, footer }: { items: NavItem[]; footer: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <div className="flex items-center justify-between border-b border-slate-200 bg-white px-4 py-3 md:hidden">
        <BrandMark />
        <button type="button" className="btn-secondary" aria-expanded={open} aria-controls="sidebar" onClick={() => setOpen((o) => !o)}>
          Menu
        </button>
      </div>
      <aside id="sidebar" className={`${open ? "block" : "hidden"} border-r border-slate-200 bg-white md:flex md:min-h-screen md:w-60 md:flex-col`}>
        <div className="hidden px-5 py-5 text-base md:block">
          <BrandMark />
        </div>
        <nav aria-label="Main" className="flex-1 px-3 py-2">
          <NavLinks items={items} onNavigate={() => setOpen(false)} />
        </nav>
        <div className="border-t border-slate-200 p-4">{footer}</div>
      </aside>
    </>
  );
}
