import { PROVIDERS } from "@/lib/providers";

/** One colour per provider, in registry order, so each keeps its mark on every page. */
const PALETTE = [
  "bg-sky-700 text-white",
  "bg-emerald-700 text-white",
  "bg-violet-700 text-white",
  "bg-amber-800 text-white",
  "bg-rose-700 text-white",
  "bg-teal-800 text-white",
  "bg-indigo-700 text-white",
  "bg-slate-700 text-white",
] as const;

/** "Provider A" → "PA": the first letter of each word, at most two. */
function providerInitials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase())
    .join("")
    .slice(0, 2);
}

/**
 * A recognisable badge for a provider (its initials on its own colour). Decorative: the provider's
 * name is always written beside it, so assistive technology skips the mark.
 */
export function ProviderMark({ slug, name, size = "md" }: { slug: string; name: string; size?: "sm" | "md" | "lg" }) {
  const index = Math.max(
    0,
    PROVIDERS.findIndex((p) => p.slug === slug),
  );
  const box = size === "lg" ? "size-12 text-base" : size === "sm" ? "size-6 text-[10px]" : "size-9 text-sm";
  return (
    <span
      aria-hidden="true"
      data-testid={`provider-mark-${slug}`}
      className={`inline-flex shrink-0 items-center justify-center rounded-lg font-semibold tracking-wide ${box} ${PALETTE[index % PALETTE.length]}`}
    >
      {providerInitials(name)}
    </span>
  );
}
