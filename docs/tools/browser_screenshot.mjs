// Drives Neo4j Browser in headless Chromium and saves the graph view of one query.
// Run by browser_screenshot.py, which starts Neo4j, writes the data and passes:
//
//   node browser_screenshot.mjs <browser-url> <bolt-uri> <out.png> <query>
//
// with PLAYWRIGHT_CORE_DIR (the playwright-core package folder, from npm) and CHROMIUM
// (the browser binary) in the environment. Auth must be off on the server.
import { createRequire } from "node:module";

const [browserUrl, boltUri, out, query] = process.argv.slice(2);
const { chromium } = createRequire(import.meta.url)(process.env.PLAYWRIGHT_CORE_DIR);

// Nothing may reach the network: the Browser's telemetry and font requests just fail fast.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 },
                                       deviceScaleFactor: 1.5 });
  // preselectAuthMethod=NO_AUTH makes Browser 5.24 connect to `dbms` without a form.
  const params = new URLSearchParams({ preselectAuthMethod: "NO_AUTH", dbms: boltUri });
  await page.goto(`${browserUrl}?${params}`);
  await page.getByText("Connected to Neo4j").waitFor({ timeout: 60_000 });

  const run = async (command) => {
    await page.getByTestId("activeEditor").click();
    await page.keyboard.press("Control+A");
    await page.keyboard.type(command);
    await page.keyboard.press("Control+Enter");
    await page.waitForTimeout(1200);
  };
  const banner = page.getByText("To help make Neo4j Browser better").locator("..");
  if (await banner.count()) await banner.getByRole("button").first().click();

  // Fact nodes have no `name`: caption them with their text, as a user would with :style.
  await run(":style node.Fact {caption: '{text}'; diameter: 115px; color: #FFE082; " +
            "border-color: #8D6E63; text-color-internal: #212121; font-size: 12px} " +
            "relationship.SUPERSEDES {color: #424242; shaft-width: 2px; font-size: 10px; " +
            "caption: '<type>'}");
  await run(":clear");
  await run(query);
  await page.getByTestId("frame").first().locator("svg g.node").first()
    .waitFor({ timeout: 30_000 });
  await page.waitForTimeout(3000); // the force layout settles
  await page.getByTestId("frame").first().screenshot({ path: out });
} finally {
  await browser.close();
}
