// Item images are fetched once at publish/build time through the guarded client and published with the site:
// a real PNG from a loopback host is kept, an HTML page, an oversized file, a 404 and an SVG become "no image".
import { parseHTML } from 'linkedom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/net/http-client.js';
import { sniffImage } from '../../src/publish/_image-sniff.js';
import { fetchItemImages } from '../../src/publish/item-images.js';
import { publishSite } from '../../src/publish/publish-site.js';
import { writeEditionFiles } from '../../src/publish/write-site.js';
import type { LoopbackServer } from '../support/loopback.js';
import { memoryFileSystem } from '../support/memory-fs.js';
import { weeklyEditions } from '../support/weekly-editions.js';
import { GOOD_PNG, IMAGE_PATHS, imageClient, startImageServer, withImages } from './_image-server.js';
import { tinyPng } from './_images.js';

const BASE = 'https://digest.example.org/';

describe('item images', () => {
  let server: LoopbackServer;

  beforeAll(async () => {
    server = await startImageServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('publishes the one good image locally; the others show no image and are warnings, not failures', async () => {
    const [older, latest] = weeklyEditions(2).map((edition) => withImages(edition, server, IMAGE_PATHS));
    const fs = memoryFileSystem();
    const before = server.requests.length;
    const result = await publishSite({
      fs,
      outDir: '/site',
      editions: [older!, latest!],
      baseUrl: BASE,
      fetchImages: { http: imageClient() },
    });
    // Each distinct URL once, although 24 items in two editions carry them.
    expect(
      server.requests
        .slice(before)
        .map((request) => request.path)
        .sort(),
    ).toEqual([...IMAGE_PATHS].sort());
    const imageFiles = [...fs.files.keys()].filter((path) => path.startsWith('/site/img/'));
    expect(imageFiles).toEqual([expect.stringMatching(/^\/site\/img\/[0-9a-f]{24}\.png$/)]);
    expect(fs.files.get(imageFiles[0]!)).toEqual(GOOD_PNG);
    const local = imageFiles[0]!.replace('/site/', '');

    expect(result.warnings).toHaveLength(4);
    for (const path of ['/page.png', '/huge.png', '/missing.png', '/vector.svg'])
      expect(result.warnings.join('\n')).toContain(path);
    expect(result.warnings.find((warning) => warning.includes('/page.png'))).toMatch(/not a PNG, JPEG/);
    expect(result.warnings.find((warning) => warning.includes('/huge.png'))).toMatch(/larger than 2097152/);
    expect(result.warnings.find((warning) => warning.includes('/missing.png'))).toMatch(/404/);

    const html = fs.text('/site/2026-05-04/index.html');
    const { document } = parseHTML(html);
    const images = Array.from(document.querySelectorAll('img'));
    const goodItems = latest!.items.filter((item) => item.image?.endsWith('/good.png'));
    expect(images).toHaveLength(goodItems.length);
    for (const image of images) {
      expect(image.getAttribute('src')).toBe(`../${local}`);
      expect(image.getAttribute('width')).toBe('3');
      expect(image.getAttribute('height')).toBe('2');
    }
    // No card keeps a placeholder or any trace of the image host.
    expect(html).not.toContain(server.origin);
    expect(html).not.toMatch(/<img[^>]+src="https?:/);
    expect(document.querySelector('meta[property="og:image"]')?.getAttribute('content')).toBe(
      `${BASE}${local}`,
    );

    // Feeds, Markdown and the archive use the site's absolute copy, never the host.
    for (const file of ['feed.xml', 'atom.xml', 'feed.json', '2026-05-04/edition.md', 'index.html']) {
      const text = fs.text(`/site/${file}`);
      expect(text, file).not.toContain(server.origin.replace('http://', ''));
    }
    expect(fs.text('/site/2026-05-04/edition.md')).toContain(`(<${BASE}${local}>)`);
    expect(JSON.parse(fs.text('/site/feed.json')).items[0].image).toBe(`${BASE}${local}`);
  });

  it('a build writes the edition page with its images under img/ too', async () => {
    const edition = withImages(weeklyEditions(1)[0]!, server, ['/good.png', '/missing.png']);
    const fs = memoryFileSystem();
    const warnings: string[] = [];
    const log = { info() {}, debug() {}, warn: (message: string) => warnings.push(message) };
    const written = await writeEditionFiles({
      fs,
      outDir: '/out',
      edition,
      editions: [],
      options: {
        fetchImages: { http: imageClient(), log },
      },
    });
    expect(written.filter((path) => path.startsWith('/out/img/'))).toHaveLength(1);
    expect(warnings).toEqual([expect.stringContaining('/missing.png')]);
    const { document } = parseHTML(fs.text('/out/2026-05-04/index.html'));
    expect(document.querySelectorAll('img')).toHaveLength(6);
    expect(document.querySelector('img')?.getAttribute('src')).toMatch(/^\.\.\/img\/[0-9a-f]{24}\.png$/);
  });

  it('many failed images make one warning with the count by reason; each image is a --verbose line', async () => {
    const edition = withImages(weeklyEditions(1)[0]!, server, ['/missing.png', '/page.png', '/vector.svg']);
    edition.items.forEach((item, index) => {
      item.image = server.url(index % 2 ? `/missing.png?n=${index}` : `/page.png?n=${index}`);
    });
    const warned: string[] = [];
    const debug: string[] = [];
    const log = {
      info() {},
      debug: (line: string) => debug.push(line),
      warn: (line: string) => warned.push(line),
    };
    const { warnings } = await fetchItemImages([edition], { http: imageClient(), log });
    expect(warnings).toHaveLength(edition.items.length);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(new RegExp(`^${edition.items.length} item images not published \\(`));
    expect(warned[0]).toMatch(/404 from …: [^·]*×6/);
    expect(warned[0]).not.toContain(server.origin);
    expect(warned[0]).toMatch(/not a PNG, JPEG[^·]*×6/);
    expect(warned[0]).toContain('--verbose');
    expect(debug.sort()).toEqual([...warnings].sort());
  });

  it('refuses an image URL that is not http(s) without a request, and a loopback host to the real guard', async () => {
    const edition = weeklyEditions(1)[0]!;
    edition.items = edition.items.slice(0, 2);
    edition.items[0]!.image = 'javascript:alert(1)';
    edition.items[1]!.image = server.url('/good.png');
    const before = server.requests.length;
    const { images, warnings } = await fetchItemImages([edition], {
      // The default guard: loopback is not a public address, so nothing is fetched.
      http: createHttpClient({ timeoutMs: 2000, maxBytes: 1024 * 1024, retries: 0 }),
    });
    expect(images.size).toBe(0);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/not an http\(s\) URL|not a public|refus/i);
    expect(server.requests.length).toBe(before);
  });
});

describe('sniffImage', () => {
  it('reads PNG, GIF, JPEG and WebP sizes from their bytes', () => {
    expect(sniffImage(tinyPng(7, 5))).toEqual({ type: 'png', width: 7, height: 5 });
    const gif = Buffer.from('GIF89a\x0a\x00\x14\x00\x00\x00\x00', 'latin1');
    expect(sniffImage(gif)).toEqual({ type: 'gif', width: 10, height: 20 });
    // SOI, an APP0 segment, then SOF0 with height 324 and width 600.
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x44, 0x02, 0x58,
      0x03,
    ]);
    expect(sniffImage(Buffer.concat([jpeg, Buffer.alloc(16)]))).toEqual({
      type: 'jpeg',
      width: 600,
      height: 324,
    });
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUIntLE(1199, 24, 3);
    webp.writeUIntLE(647, 27, 3);
    expect(sniffImage(webp)).toEqual({ type: 'webp', width: 1200, height: 648 });
  });

  it('refuses SVG, HTML, empty and unknown bytes', () => {
    for (const text of [
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
      '<?xml version="1.0"?><svg/>',
      '<!DOCTYPE html>',
      '',
    ])
      expect(sniffImage(Buffer.from(text))).toBeNull();
    expect(sniffImage(Buffer.from([0x00, 0x00, 0x01, 0x00]))).toBeNull(); // ICO
  });
});
