import "server-only";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { compile } from "tailwindcss";
import tailwindConfig from "@/tailwind.config";
import { CLASSES } from "./render";

/**
 * The hosted page's stylesheet: the dashboard's own Tailwind setup (app/globals.css, the same
 * theme and components) built by Tailwind's compiler for exactly the classes the page uses
 * (CLASSES), once per process (assets.ts keeps it). A few kB, so a phone loads no dashboard CSS it does not need.
 */
export async function buildHostedPageStylesheet(): Promise<string> {
  const root = /*turbopackIgnore: true*/ process.cwd();
  const require = createRequire(path.join(root, "package.json"));
  const entry = path.join(root, "app", "globals.css");
  const compiler = await compile(await readFile(entry, "utf8"), {
    base: path.dirname(entry),
    loadStylesheet: async (id, base) => {
      const file = id === "tailwindcss" ? require.resolve("tailwindcss/index.css") : path.resolve(base, id);
      return { path: file, base: path.dirname(file), content: await readFile(file, "utf8") };
    },
    // app/globals.css names tailwind.config.ts with @config: the brand colours.
    loadModule: async (id, base) => ({ path: id, base, module: tailwindConfig }),
  });
  return compiler.build(Object.values(CLASSES).flatMap((classes) => classes.split(/\s+/)));
}
