// Makes sure a Chromium exists for the e2e tests: Playwright's own, else Debian's /usr/bin/chromium.
// Playwright cannot download its browser here, so on Debian as root we install Debian's package.
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

if (!bundled() && !fs.existsSync("/usr/bin/chromium")) {
  const isRoot = process.getuid?.() === 0;
  const isDebian = fs.existsSync("/etc/debian_version");
  if (!isRoot || !isDebian) {
    console.error("No Chromium found. Install Debian's chromium package (apt-get install -y chromium) and run again.");
    process.exit(1);
  }
  console.log("No Chromium found: installing Debian's chromium package with apt-get (one time)...");
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", { stdio: "inherit" });
}
