/**
 * How a test-mode connection's sandbox misbehaves, to see what payments and
 * payouts do when a provider fails. Isomorphic and free of zod: the connection page's control and
 * the server action (which checks a choice against it) read the same list.
 */
export const SANDBOX_FAULT_MODES = ["none", "timeout", "server_error", "garbage", "slow"] as const;

export type SandboxFaultMode = (typeof SANDBOX_FAULT_MODES)[number];

export const SANDBOX_FAULT_LABELS: Readonly<Record<SandboxFaultMode, { label: string; description: string }>> = {
  none: { label: "Normal", description: "The sandbox answers as the provider would." },
  timeout: {
    label: "Timeout",
    description: "The sandbox takes the request but does not answer before the timeout: the outcome is unknown until a status request answers.",
  },
  server_error: {
    label: "Server error (5xx)",
    description: "The sandbox refuses every request with HTTP 503 before acting: the attempt is a soft failure and the next connection in routing is tried.",
  },
  garbage: {
    label: "Garbled answer",
    description: "The sandbox takes the request and answers HTTP 200 with a body that is not JSON: the outcome is unknown until a status request answers.",
  },
  slow: { label: "Slow", description: "The sandbox answers correctly, but only after a delay shorter than the timeout." },
};
