/**
 * How every browser run here launches Debian's Chromium: Playwright cannot download its
 * own, and without the background-networking flags Chromium tries to reach the internet
 * and stalls on a machine that cannot.
 */
export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};
