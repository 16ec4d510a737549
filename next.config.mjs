/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "bcryptjs", "drizzle-orm"],
  poweredByHeader: false,
  typedRoutes: false,
  // `next dev` would print every server action's arguments: passwords, secret keys, private keys.
  logging: { serverFunctions: false },
  experimental: {
    serverActions: { bodySizeLimit: "512kb" },
  },
};

export default nextConfig;
