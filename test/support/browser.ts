// Real Chromium for the publish tests: one browser per test file, no network (only loopback and stubbed images).
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from './environment.js';

export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-artifacts');

export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('Chromium is not installed (set CHROMIUM_PATH)');
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
}

/** A 1200×648 grey placeholder served for any https image, so pages lay out as with real thumbnails. */
const PLACEHOLDER_IMAGE =
  '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="648"><rect width="1200" height="648" fill="#9aa3ad"/></svg>';

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Messages of every alert/confirm/prompt the page tried to open. */
  dialogs: string[];
  /** Content-Security-Policy violations the page reported (directive + blocked URI). */
  violations(): Promise<string[]>;
  /** True when a script injected through the content ran (it sets window.__pwned). */
  scriptRan(): Promise<boolean>;
}

export interface OpenOptions {
  width: number;
  height?: number;
  /** Needed to inject axe-core into pages whose policy forbids inline scripts. Off for the XSS checks. */
  bypassCSP?: boolean;
  /** Origin whose requests pass (the loopback site); everything else is stubbed or aborted. */
  allowOrigin?: string;
}

export async function openPage(browser: Browser, options: OpenOptions): Promise<OpenedPage> {
  const context = await browser.newContext({
    viewport: { width: options.width, height: options.height ?? 900 },
    bypassCSP: options.bypassCSP ?? false,
    serviceWorkers: 'block',
  });
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (options.allowOrigin && url.startsWith(`${options.allowOrigin}/`)) return route.continue();
    if (url.startsWith('https://') && route.request().resourceType() === 'image') {
      return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: PLACEHOLDER_IMAGE });
    }
    return route.abort('blockedbyclient');
  });
  await context.addInitScript(() => {
    const store = window as unknown as { __violations: string[] };
    store.__violations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      store.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return {
    context,
    page,
    dialogs,
    violations: () =>
      page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []),
    scriptRan: () => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned !== undefined),
  };
}

let axeSource: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Runs axe-core (WCAG 2.x A/AA and best practices) in the page; the context must bypass CSP to inject it. */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: unknown[] }> } })
      .axe;
    const result = await axe.run(document);
    return (
      result.violations as {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: string[] }[];
      }[]
    ).map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
}

/** Full-page screenshot under test-artifacts/ (gitignored). */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
