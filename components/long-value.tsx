import { Link } from "@/components/link";
import { CopyButton } from "./copy-button";

/**
 * A long identifier (a reference_id, an invoice id) on one line: cut with an ellipsis where it
 * does not fit, the whole value in `title` and in the text itself (screen readers read all of it),
 * followed by a copy button named `copyLabel`. Give the parent a width (a grid or table cell, or
 * `textClassName` with a max-width) for the cut to happen.
 */
export function LongValue({
  value,
  copyLabel,
  href,
  textClassName = "",
  className = "",
  testId,
}: {
  value: string;
  copyLabel: string;
  /** Makes the value a link (e.g. to the invoice). */
  href?: string;
  textClassName?: string;
  className?: string;
  testId?: string;
}) {
  const text = `min-w-0 truncate font-mono text-xs ${textClassName}`;
  return (
    <span className={`flex min-w-0 items-center gap-1 ${className}`}>
      {href ? (
        <Link href={href} title={value} className={`${text} font-medium text-brand-700 underline underline-offset-4`} data-testid={testId}>
          {value}
        </Link>
      ) : (
        <span title={value} className={text} data-testid={testId}>
          {value}
        </span>
      )}
      <CopyButton value={value} label={copyLabel} />
    </span>
  );
}
