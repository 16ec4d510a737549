const NAME = "Payment Orchestrator";

/** The logo and the product's name; the logo carries the name for assistive technology, once. */
export function BrandMark({ className = "" }: { className?: string }) {
  return (
    <span className={`flex items-center gap-2 font-semibold text-brand-700 ${className}`}>
      {/* A plain img: an SVG needs no optimising, and next/image would add its client code (about 9 kB gzipped) to every page. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src="/logo.svg" alt={NAME} width={28} height={28} />
      <span aria-hidden="true">{NAME}</span>
    </span>
  );
}
