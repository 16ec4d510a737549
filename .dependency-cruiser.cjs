/**
 * Import rules (npm run lint): the layer order of ARCHITECTURE.md ("Layers"), type-only imports
 * included, and no cycle. A layer imports its own folder and the layers below it, never one above.
 * The imports against the order that stand today are listed in .dependency-cruiser-known-violations.json
 * (`npx depcruise … --output-type baseline` writes it); a new one fails lint. They are, with why:
 * - lib/sandbox/faults.ts → lib/providers/kit/timeout.ts: the timeout fault lasts as long as the kit waits.
 * - lib/sandbox/accounts.ts and lib/providers/server/tasks/sandbox-callback.ts → lib/connections/store.ts:
 *   a sandbox account is a saved connection's credentials, read with revealCredentials.
 * - lib/providers/server/tasks/sandbox-callback.ts → lib/callbacks/url.ts: the address a callback goes to.
 * - lib/composer/curl.ts → lib/api/invoice-resource.ts: the invoice collection's path.
 * - lib/composer/api-errors.ts → lib/actions/result.ts: the form error type (a type only).
 * - lib/invoices/status.ts → lib/analytics/rollups.ts: rollups kept in the settling transaction.
 * - lib/invoices/export/invoice-csv.ts → lib/api/responses.ts: the streamed CSV response.
 */

/** Top to bottom. Anything in lib/ not named here is a leaf (db, config, money, problems, jobs, http, cards, …). */
const LAYERS = [
  ["composition", "^lib/(actions|admin)/|^lib/server-(jobs|start)\\.ts$"],
  ["entry points", "^lib/(callbacks|pay|dashboard|payment-links|webhooks|alerts)/"],
  ["http boundary", "^lib/api/"],
  ["refunds and composer", "^lib/(refunds|disputes|composer)/"],
  ["processing", "^lib/processing/"],
  ["payment methods", "^lib/payment-methods/"],
  ["analytics", "^lib/analytics/"],
  ["invoices", "^lib/invoices/"],
  ["risk", "^lib/risk/"],
  ["merchants and keys", "^lib/(merchants|api-keys)/"],
  ["routing", "^lib/routing/"],
  ["connections", "^lib/connections/"],
  ["customers", "^lib/customers/"],
  ["providers", "^lib/providers/(?!types\\.ts$)"],
  ["sandbox", "^lib/sandbox/"],
  ["auth", "^lib/auth/"],
  ["identity", "^lib/identity/"],
  ["vault", "^lib/vault/"],
];

/** Tests reach across layers on purpose (a unit test may build its case through a higher module). */
const TESTS = "\\.test\\.tsx?$";

const layerRules = LAYERS.slice(1).map(([name, path], index) => ({
  name: `layer-${name.replace(/\W+/g, "-")}`,
  comment: `${name} sits below ${LAYERS.slice(0, index + 1)
    .map(([above]) => above)
    .join(", ")} (ARCHITECTURE.md "Layers"): it never imports them.`,
  severity: "error",
  from: { path, pathNot: TESTS },
  to: {
    path: LAYERS.slice(0, index + 1)
      .map(([, above]) => `(${above})`)
      .join("|"),
    pathNot: path,
  },
}));

// Below the last named layer: the leaves import no named layer at all.
const leaves = {
  name: "layer-leaves",
  comment: "The leaves of lib/ (db, config, money, problems, jobs, http, cards, …) import no layer above them.",
  severity: "error",
  from: { path: "^lib/", pathNot: TESTS + "|" + LAYERS.map(([, path]) => `(${path})`).join("|") + "|^lib/providers/types\\.ts$" },
  to: { path: LAYERS.map(([, path]) => `(${path})`).join("|") },
};

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Modules that import each other, type-only imports included.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "lib-not-app",
      comment: "lib/ never imports from app/ or components/.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(app|components)/" },
    },
    ...layerRules,
    leaves,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.next|lib/db/migrations)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
    moduleSystems: ["es6", "cjs"],
  },
};
