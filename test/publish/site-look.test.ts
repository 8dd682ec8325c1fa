// publish.identity's accent colour and logo on the published site: in every page's hashed stylesheet and header,
// allowed by the page's own policy and by the one `digest serve` sends, and as the feeds' image.
import { createHash } from 'node:crypto';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { publishSite } from '../../src/publish/publish-site.js';
import { senderIdentity } from '../../src/publish/sender-identity.js';
import { siteContentSecurityPolicy } from '../../src/publish/site-policy.js';
import { renderSubscriberPage } from '../../src/publish/subscriber-pages.js';
import { memoryFileSystem } from '../support/memory-fs.js';
import { weeklyEditions } from '../support/weekly-editions.js';

const BASE = 'https://digest.example.org/';
const look = { accentColor: '#8a2be2', logoUrl: 'https://cdn.example.net/brand/logo one;v=2.png?size=64' };
/** The logo's address as pages and feeds carry it: normalised (the space encoded). */
const LOGO = 'https://cdn.example.net/brand/logo%20one;v=2.png?size=64';
const PAGES = ['index.html', '2026-05-04/index.html', 'search/index.html', '404.html'];

async function published(withLook: boolean): Promise<Map<string, string>> {
  const fs = memoryFileSystem();
  await publishSite({
    fs,
    outDir: '/site',
    editions: weeklyEditions(3),
    baseUrl: BASE,
    siteName: 'Agents <Weekly>',
    ...(withLook ? { look } : {}),
  });
  return new Map([...fs.files].map(([path, data]) => [path.slice('/site/'.length), String(data)]));
}

/** The page's own policy, its one <style>, and the header's logo. */
function pageParts(markup: string) {
  const { document } = parseHTML(markup);
  const policy =
    document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '';
  const style = document.querySelectorAll('style');
  expect(style).toHaveLength(1);
  const css = style[0]!.textContent ?? '';
  const logo = document.querySelector('header.site img.logo');
  return { policy, css, logo, styleHash: `'sha256-${createHash('sha256').update(css).digest('base64')}'` };
}

describe('the accent colour and logo on the published site', () => {
  it('every page carries them, and its policy allows exactly its stylesheet and the logo', async () => {
    const files = await published(true);
    for (const path of PAGES) {
      const { policy, css, logo, styleHash } = pageParts(files.get(path)!);
      expect(css, path).toContain('--link:#8a2be2');
      expect(policy, path).toContain(`style-src ${styleHash}`);
      // One exact image besides the site's own: its path with the policy's separators encoded, no query.
      expect(policy, path).toContain(
        "img-src 'self' data: https://cdn.example.net/brand/logo%20one%3Bv=2.png;",
      );
      expect(logo?.getAttribute('src'), path).toBe(LOGO);
      expect(logo?.getAttribute('alt'), path).toBe('Agents <Weekly>');
      // The server's header allows the same stylesheet and logo (both policies apply to a served page).
      expect(siteContentSecurityPolicy(look)).toContain(styleHash);
      expect(siteContentSecurityPolicy(look)).toContain('https://cdn.example.net/brand/logo%20one%3Bv=2.png');
    }
    // The name is escaped in the logo's text like anywhere else.
    expect(files.get('index.html')).toContain('alt="Agents &lt;Weekly&gt;"');
    expect(files.get('feed.xml')).toContain('<image>');
    expect(files.get('feed.xml')).toContain(`<url>${LOGO}</url>`);
    expect(files.get('atom.xml')).toContain(`<logo>${LOGO}</logo>`);
    expect(JSON.parse(files.get('feed.json')!).icon).toBe(LOGO);
  });

  it('without them the pages keep the plain stylesheet, no logo and the policy they had', async () => {
    const files = await published(false);
    const { policy, css, logo, styleHash } = pageParts(files.get('index.html')!);
    expect(css).not.toContain('prefers-color-scheme:light');
    expect(logo).toBeNull();
    expect(policy).toContain("img-src 'self' data:;");
    expect(siteContentSecurityPolicy()).toContain(styleHash);
    expect(files.get('feed.xml')).not.toContain('<image>');
    // A page published before the look was set still has its style under the new header.
    expect(siteContentSecurityPolicy(look)).toContain(styleHash);
  });

  it("the service's subscriber pages carry them too", () => {
    const page = renderSubscriberPage(
      { kind: 'confirmed' },
      { root: '/', siteName: 'Agents Weekly', sender: senderIdentity(look) },
    );
    const { css, logo, policy, styleHash } = pageParts(page);
    expect(css).toContain('--link:#8a2be2');
    expect(logo?.getAttribute('alt')).toBe('Agents Weekly');
    expect(policy).toContain(styleHash);
  });
});
