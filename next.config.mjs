/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "bcryptjs", "drizzle-orm", "pg-boss", "pg"],
  poweredByHeader: false,
  typedRoutes: false,
  // `next dev` would print every server action's arguments: passwords, secret keys, private keys.
  logging: { serverFunctions: false },
  // The hosted payment page and the sandbox's 3-D Secure page take card data and answers: no one may frame them.
  async headers() {
    const noFraming = [
      { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
      { key: "X-Frame-Options", value: "DENY" },
    ];
    return [
      { source: "/pay/:path*", headers: noFraming },
      { source: "/sandbox/3ds/:path*", headers: noFraming },
    ];
  },
  experimental: {
    serverActions: { bodySizeLimit: "512kb" },
  },
};

export default nextConfig;
