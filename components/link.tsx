"use client";

import NextLink from "next/link";
import { useRouter } from "next/navigation";
import type { ComponentProps } from "react";

/**
 * The app's link: Next's, prefetching its page when a person reaches for it (the pointer moves
 * over it, it takes focus, a finger touches it) rather than whenever it scrolls into view. Every
 * dashboard page shows the sidebar's dozen links and often a list of more, each a dynamic page:
 * prefetched on sight, one page view cost the server a dozen or more renders (the signed-in
 * layout with its session and merchant reads) that were mostly never used; measured in the e2e
 * suite's traces, ten prefetches per page actually opened. On intent the next page is still
 * fetched before the click lands. `prefetch={false}` turns even that off (a link a script
 * handles). eslint.config.mjs sends every import of next/link here.
 */
export function Link({ prefetch, onMouseEnter, onFocus, onTouchStart, href, ...props }: ComponentProps<typeof NextLink>) {
  const router = useRouter();
  const path = typeof href === "string" && href.startsWith("/") ? href : undefined;
  const reach = () => {
    if (prefetch !== false && path) router.prefetch(path);
  };
  return (
    <NextLink
      {...props}
      href={href}
      prefetch={false}
      onMouseEnter={(event) => {
        reach();
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        reach();
        onFocus?.(event);
      }}
      onTouchStart={(event) => {
        reach();
        onTouchStart?.(event);
      }}
    />
  );
}
