import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A client component ("use client") must not import a module marked `import "server-only"`: such
 * modules hold or touch secrets. Next's build refuses the bundle too, but only at build time and
 * only for pages it reaches; lint says so at once, naming the import. Direct imports only: a
 * marked module imported through an unmarked one is still caught by the build.
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const EXTENSIONS = ["", ".ts", ".tsx", ".mts", ".js", ".jsx", ".mjs", "/index.ts", "/index.tsx", "/index.js"];
const MARKER = /^\s*import\s+["']server-only["']\s*;?\s*$/m;

/** Keyed by path and modification time, so an editor's long-lived lint process sees edits. */
const markedCache = new Map();

function resolveSpecifier(fromFile, specifier) {
  let base;
  if (specifier.startsWith("@/")) base = path.join(ROOT, specifier.slice(2));
  else if (specifier.startsWith("./") || specifier.startsWith("../")) base = path.resolve(path.dirname(fromFile), specifier);
  else return undefined;
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not this extension
    }
  }
  return undefined;
}

function isMarkedServerOnly(file) {
  const { mtimeMs } = fs.statSync(file);
  const cached = markedCache.get(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached.marked;
  const marked = MARKER.test(fs.readFileSync(file, "utf8"));
  markedCache.set(file, { mtimeMs, marked });
  return marked;
}

function isClientModule(program) {
  for (const statement of program.body) {
    if (statement.type !== "ExpressionStatement" || typeof statement.directive !== "string") return false;
    if (statement.directive === "use client") return true;
  }
  return false;
}

/** Type-only imports are erased before bundling, so they bring nothing into the browser. */
function isTypeOnly(node) {
  if (node.importKind === "type" || node.exportKind === "type") return true;
  const specifiers = node.specifiers ?? [];
  return node.type === "ImportDeclaration" && specifiers.length > 0 && specifiers.every((s) => s.importKind === "type");
}

export const noServerOnlyInClient = {
  meta: {
    type: "problem",
    docs: { description: 'Forbid a "use client" module from importing a module marked import "server-only"' },
    schema: [],
    messages: {
      marked:
        'This client component imports "{{specifier}}", which is marked server-only (it holds or touches secrets). Move the work to a server component or a server action.',
      direct: 'A client component cannot import "server-only"; drop "use client" or the marker.',
    },
  },
  create(context) {
    const filename = context.physicalFilename ?? context.filename;
    let client = false;
    function check(node) {
      if (!client || !node.source || typeof node.source.value !== "string" || isTypeOnly(node)) return;
      const specifier = node.source.value;
      if (specifier === "server-only") {
        context.report({ node, messageId: "direct" });
        return;
      }
      const target = resolveSpecifier(filename, specifier);
      if (target && isMarkedServerOnly(target)) context.report({ node, messageId: "marked", data: { specifier } });
    }
    return {
      Program(program) {
        client = isClientModule(program);
      },
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export const projectRules = { rules: { "no-server-only-in-client": noServerOnlyInClient } };
