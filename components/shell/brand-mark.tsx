import Image from "next/image";

const NAME = "Payment Orchestrator";

/** The logo and the product's name; the logo carries the name for assistive technology, once. */
export function BrandMark({ className = "" }: { className?: string }) {
  return (
    <span className={`flex items-center gap-2 font-semibold text-brand-700 ${className}`}>
      <Image src="/logo.svg" alt={NAME} width={28} height={28} unoptimized />
      <span aria-hidden="true">{NAME}</span>
    </span>
  );
}
