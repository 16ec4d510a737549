"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // Server-rendered data arrives fresh; without a stale time every page would fetch it again on mount.
      queries: { staleTime: 5_000, refetchOnWindowFocus: true, retry: 1 },
    },
  });
}

/** One QueryClient per browser session (kept in state, so re-renders never replace its cache). */
export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(makeQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
