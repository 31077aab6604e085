import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium } from "playwright";
import { startServer } from "../bff/server";
import { axeFindings, type Finding } from "../tests/helpers/browser/axe";
import { layoutProblems } from "../tests/helpers/browser/layout";
import {
  type Screen,
  type ScreenLanguage,
  screenLanguages,
  screenName,
  screens,
} from "../tests/helpers/browser/page-states";
import { panelAdmin } from "../tests/helpers/browser/pages";
import { textsOf, untranslatedProblems } from "../tests/helpers/browser/untranslated";
import { chromiumLaunch } from "../tests/helpers/chromium";
import { e2eJwtSecret } from "../tests/helpers/e2e-secrets";

// `npm run screenshots`: every page in its main states, in ru, en, zh and kk, at a phone's
// 390×844 and a laptop's 1440×900 (full page), into screenshots/ as
// <page>-<state>-<lang>-<width>.png, from the real server on a throwaway database. It also
// writes screenshots/report.json: every axe-core finding (any impact) and every untranslated
// word per screen, for reading alongside the pictures. `-- <filter>` keeps screens whose
// name contains it.

const port = Number(process.env.SCREENSHOTS_PORT ?? 3701);
const baseURL = `http://localhost:${port}`;
const outDirectory = "screenshots";
const widths = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];
const filter = process.argv[2] ?? "";
const only =
  (process.env.SCREENSHOTS_LANGUAGES?.split(",") as ScreenLanguage[] | undefined) ?? screenLanguages;

type Report = {
  screen: string;
  language: ScreenLanguage;
  axe: Finding[];
  untranslated: string[];
  layout: string[];
  error?: string;
};

async function shoot(browser: Browser, screen: Screen, language: ScreenLanguage): Promise<Report> {
  const context = await browser.newContext({ baseURL, viewport: widths[0], deviceScaleFactor: 1 });
  const page = await context.newPage();
  const name = screenName(screen);
  const report: Report = { screen: name, language, axe: [], untranslated: [], layout: [] };
  try {
    await screen.open(page, language);
    for (const size of widths) {
      await page.setViewportSize(size);
      await page.waitForTimeout(300);
      await page.screenshot({
        path: join(outDirectory, `${name}-${language}-${size.width}.png`),
        fullPage: true,
      });
      report.layout.push(...(await layoutProblems(page)).map((problem) => `${size.width} px: ${problem}`));
    }
    report.axe = await axeFindings(page);
    if (language !== "en") report.untranslated = untranslatedProblems(await textsOf(page), language);
  } catch (error) {
    report.error = error instanceof Error ? error.message.split("\n")[0] : String(error);
  } finally {
    await context.close();
  }
  return report;
}

mkdirSync(outDirectory, { recursive: true });
// The server the browser tests use: demo mode, a fresh database, the tests' operator and
// JWT secret (the cancel-link screen signs its token with it).
const { server, stopScheduler, stopMail } = await startServer({
  ...process.env,
  PORT: String(port),
  LOG_LEVEL: "error",
  DATABASE_PATH: join(mkdtempSync(join(tmpdir(), "kannt-screenshots-")), "app.db"),
  JWT_SECRET: e2eJwtSecret,
  ADMIN_USERNAME: panelAdmin.username,
  ADMIN_PASSWORD: panelAdmin.password,
});
const browser = await chromium.launch(chromiumLaunch);
const jobs = screens
  .filter((screen) => screenName(screen).includes(filter))
  .flatMap((screen) => only.map((language) => ({ screen, language })));
const reports: Report[] = [];
// Two pages at a time: the machine's two cores also run the server.
const workers = Array.from({ length: 2 }, async () => {
  for (let job = jobs.shift(); job; job = jobs.shift()) {
    const report = await shoot(browser, job.screen, job.language);
    reports.push(report);
    console.log(
      `${report.screen} ${report.language}: ${report.error ? `FAILED ${report.error}` : `${report.axe.length} axe, ${report.untranslated.length} untranslated`}`,
    );
  }
});
try {
  await Promise.all(workers);
} finally {
  await browser.close();
  server.stop();
  stopScheduler();
  await stopMail();
}
reports.sort((a, b) => `${a.screen} ${a.language}`.localeCompare(`${b.screen} ${b.language}`));
writeFileSync(join(outDirectory, "report.json"), `${JSON.stringify(reports, null, 2)}\n`);
console.log(`${reports.length} screens in ${outDirectory}/`);
