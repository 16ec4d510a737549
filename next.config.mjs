/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled.
  // Tailwind's compiler builds the hosted payment page's stylesheet at run time (lib/pay/page/stylesheet.ts).
  // prom-client: one copy for Next's bundles and server.ts (the metrics themselves are on globalThis, lib/metrics/registry.ts).
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "bcryptjs", "drizzle-orm", "pg-boss", "pg", "tailwindcss", "prom-client"],
  poweredByHeader: false,
  typedRoutes: false,
  // `next dev` would print every server action's arguments: passwords, secret keys, private keys.
  logging: { serverFunctions: false },
  // Pages get their Content-Security-Policy (with a per-response nonce, frame-ancestors 'none') and
  // X-Frame-Options from proxy.ts; server.ts sets these two (and HSTS over https) on every answer of
  // `npm start`. Here for `next dev` and anything server.ts does not see.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
      // lib/api/security-headers.ts (every wrapper sets them too): here also on the answers Next
      // gives itself under /api (a method a route file does not export, a failure before any route).
      {
        source: "/api/:path*",
        headers: [
          { key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Cache-Control", value: "no-store" },
        ],
      },
    ];
  },
  // `npm run typecheck` (tsc over the whole tree) is the type check; a local build may skip its own
  // copy with NEXT_BUILD_SKIP_TYPECHECK=1 while tests elsewhere in the tree are being edited.
  typescript: { ignoreBuildErrors: process.env.NEXT_BUILD_SKIP_TYPECHECK === "1" },
  experimental: {
    serverActions: { bodySizeLimit: "512kb" },
    // Turbopack saves what it built to .next/cache for the next build (on by default in Next 16.4).
    // CI builds a clean clone once and throws the clone away: NEXT_BUILD_NO_CACHE=1 (scripts/test.mjs,
    // under CI) skips writing a cache no one reads, about 30 s of a two-core machine.
    turbopackFileSystemCacheForBuild: process.env.NEXT_BUILD_NO_CACHE !== "1",
  },
};

export default nextConfig;
