// Makes sure a Chromium exists for the e2e tests: Playwright's own, else Debian's old headless shell
// (/usr/bin/chromium-headless-shell, what Playwright runs headless; playwright.config.ts prefers it),
// else Debian's full /usr/bin/chromium. Playwright cannot download its browser here, so on Debian as
// root we install Debian's chromium-headless-shell package.
import { execSync } from "node:child_process";
import fs from "node:fs";
import { chromium } from "@playwright/test";

function bundled() {
  try {
    const p = chromium.executablePath();
    return p && fs.existsSync(p);
  } catch {
    return false;
  }
}

if (!bundled() && !fs.existsSync("/usr/bin/chromium-headless-shell")) {
  const isRoot = process.getuid?.() === 0;
  const isDebian = fs.existsSync("/etc/debian_version");
  if (!isRoot || !isDebian) {
    if (fs.existsSync("/usr/bin/chromium")) process.exit(0); // the full browser works too, only slower
    console.error("No Chromium found. Install Debian's chromium-headless-shell package (apt-get install -y chromium-headless-shell) and run again.");
    process.exit(1);
  }
  console.log("No headless Chromium found: installing Debian's chromium-headless-shell package with apt-get (one time)...");
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell", { stdio: "inherit" });
}
