// ARCHITECTURE.md and the folders' READMEs (src/<folder>/README.md) cannot drift from the tree: every path they name
// (`editions/build.ts`, `src/desk/views/`, `test/sources/contract.ts`, `write/prompts/*.md`…) exists, every folder
// under src/ is named in ARCHITECTURE.md as a folder, and so is every folder's README. They stay short enough to read
// through, and in the words a TypeScript developer of this domain uses.
// Reads files only: no build, no store.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const DOCUMENT = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

/** Every folder under src/, relative to it ('desk', 'desk/views', 'store/migrations', …). */
function foldersUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      return [relative(SRC, path), ...foldersUnder(path)];
    });
}

const SRC_FOLDERS = foldersUnder(SRC);
// The detail beside the code, for a folder whose code needs more than its file names (paths written from src/).
const FOLDER_READMES = SRC_FOLDERS.filter((folder) => existsSync(join(SRC, folder, 'README.md'))).map(
  (folder) => ({
    name: `${folder}/README.md`,
    text: readFileSync(join(SRC, folder, 'README.md'), 'utf8'),
  }),
);
const DOCUMENTS = [{ name: 'ARCHITECTURE.md', text: DOCUMENT }, ...FOLDER_READMES];
const TOP_FOLDERS = new Set(SRC_FOLDERS.filter((folder) => !folder.includes('/')));
// Folders of the repository a path may start with besides src/'s own (`test/sources/contract.ts`, `lint/…`).
const REPO_FOLDERS = new Set(
  readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
    .map((entry) => entry.name),
);

// What the program writes (the site in out/, the build in dist/, the data folder): named by the document, ignored by
// git, so not in the tree.
const GENERATED = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => /^\/([\w.-]+)\/$/.exec(line.trim())?.[1])
  .filter((folder): folder is string => folder !== undefined);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const FILE_NAME = /\.(ts|js|mjs|cjs|md|json|grit|yaml)$/;

/**
 * Path-like words: `name/…` (letters, digits, `.`, `_`, `-`, `*` for a glob) not inside a longer path or a URL.
 * Paths of ours: those whose first folder is one of src/ or of the repository, any `a/b.ts`-like file name (so a
 * folder that is gone, `pipeline/ingest.ts`, is caught), and a code span that is one folder (`app/`); `text/html`
 * and `de/…` are not.
 */
function namedPaths(text: string): string[] {
  const words = (text.match(/(?<![\w./:@<-])[A-Za-z_][\w.-]*\/[\w./*-]*/g) ?? []).map((word) =>
    word.replace(/[.,]+$/, ''),
  );
  const folderSpans = [...text.matchAll(/`([A-Za-z_][\w.-]*\/)`/g)].map((match) => match[1]!);
  return [
    ...new Set([
      ...words.filter((word) => {
        const first = word.split('/')[0]!;
        return first === 'src' || TOP_FOLDERS.has(first) || REPO_FOLDERS.has(first) || FILE_NAME.test(word);
      }),
      ...folderSpans,
    ]),
  ];
}

/** Whether a path (relative to `base`) exists; a `*` in its last part matches any characters. */
function existsUnder(base: string, path: string): boolean {
  const full = join(base, path);
  if (!path.includes('*')) return existsSync(full);
  const folder = dirname(full);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return false;
  const pattern = new RegExp(`^${escapeRegExp(basename(full)).replace(/\\\*/g, '.*')}$`);
  return readdirSync(folder).some((name) => pattern.test(name));
}

/** `src/x/…` from the repository root; `x/…` under src/ (the document's short form) or else the root. */
function pathExists(path: string): boolean {
  if (GENERATED.includes(path.split('/')[0]!)) return true;
  if (path.startsWith('src/')) return existsUnder(ROOT, path);
  return existsUnder(SRC, path) || existsUnder(ROOT, path);
}

describe('ARCHITECTURE.md matches the tree', () => {
  it('finds the paths it names (a sanity check of the reader itself)', () => {
    expect(namedPaths('see `editions/build.ts` `build()`, `text/html`, https://a.example/core/x')).toEqual([
      'editions/build.ts',
    ]);
    expect(
      namedPaths('`src/app/build.ts`, `write/prompts/*.md`. `pipeline/ingest.ts` in `app/` and `de/…`'),
    ).toEqual(['src/app/build.ts', 'write/prompts/*.md', 'pipeline/ingest.ts', 'app/']);
    expect(pathExists('src/app/build.ts')).toBe(false);
    expect(pathExists('pipeline/ingest.ts')).toBe(false);
    expect(pathExists('app/')).toBe(false);
    expect(pathExists('dist/empty-db.tar.gz')).toBe(true);
    expect(pathExists('write/prompts/*.md')).toBe(true);
    expect(pathExists('sources/_feed-*.ts')).toBe(true);
    expect(pathExists('sources/_nothing-*.ts')).toBe(false);
  });

  it("names only paths that exist, in ARCHITECTURE.md and the folders' READMEs", () => {
    const missing = DOCUMENTS.flatMap(({ name, text }) =>
      namedPaths(text)
        .filter((path) => !pathExists(path))
        .map((path) => `${name}: ${path}`),
    );
    expect(missing, 'paths named in ARCHITECTURE.md or a README of src/ that are not in the tree').toEqual(
      [],
    );
  });

  it('names every folder README of src/, and there are some', () => {
    expect(FOLDER_READMES.length).toBeGreaterThan(0);
    const unnamed = FOLDER_READMES.map(({ name }) => name).filter(
      (name) => !DOCUMENT.includes(`\`${name}\``),
    );
    expect(unnamed, 'READMEs under src/ that ARCHITECTURE.md does not point to').toEqual([]);
  });

  it('names functions that are in the files it names them with (`editions/build.ts` `build()`)', () => {
    const pairs = DOCUMENTS.flatMap(({ text }) => [
      ...text.matchAll(/`((?:src\/)?[\w.-]+(?:\/[\w.-]+)+\.ts)` `([A-Za-z_$][\w$]*)(?:\([^`]*\))?`/g),
    ]);
    expect(pairs.length).toBeGreaterThan(20);
    const absent = pairs
      .map(([, path, name]) => ({ path: path!, name: name! }))
      .filter(({ path, name }) => {
        const file =
          path.startsWith('src/') || !existsSync(join(SRC, path)) ? join(ROOT, path) : join(SRC, path);
        return (
          !existsSync(file) || !new RegExp(`\\b${escapeRegExp(name)}\\b`).test(readFileSync(file, 'utf8'))
        );
      })
      .map(({ path, name }) => `${path} ${name}`);
    expect(absent, 'functions ARCHITECTURE.md places in a file that does not have them').toEqual([]);
  });

  it("names in the capabilities' table only files and functions of that desk (`build.ts` `build` in the editions row)", () => {
    const rows = [...DOCUMENT.matchAll(/^\| `([a-z]+)\/` \|(.*)$/gm)];
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const absent = rows.flatMap(([, desk, row]) => {
      const files = [...row!.matchAll(/`([\w.-]+\.ts)`(?: `([A-Za-z_$][\w$]*)`)?/g)];
      return files
        .filter(([, file, name]) => {
          const path = join(SRC, desk!, file!);
          if (!existsSync(path)) return true;
          return name !== undefined && !new RegExp(`\\b${name}\\b`).test(readFileSync(path, 'utf8'));
        })
        .map(([, file, name]) => `${desk}/${file}${name ? ` ${name}` : ''}`);
    });
    expect(absent, "the capabilities' table names what the desk does not have").toEqual([]);
  });

  it('names every folder under src/, and src/deps.ts', () => {
    const unnamed = SRC_FOLDERS.filter(
      (folder) => !new RegExp(`(?<![\\w./-])(src/)?${escapeRegExp(folder)}/(?![\\w.*-])`).test(DOCUMENT),
    );
    expect(unnamed, 'folders under src/ that ARCHITECTURE.md does not name').toEqual([]);
    expect(DOCUMENT).toMatch(/`(src\/)?deps\.ts`/);
  });
});

// The map is read through, not searched: a length one sits down to, tables whose cells are a phrase, not a page.
const MAX_DOCUMENT_BYTES = 15_000;
const MAX_TABLE_CELL = 300;

/** The cells of every Markdown table row (`| a | b |`): split on each `|` not escaped, as GitHub splits them. */
function tableCells(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.trimStart().startsWith('|'))
    .flatMap((line) =>
      line
        .trim()
        .replace(/^\|/, '')
        .replace(/\|$/, '')
        .split(/(?<!\\)\|/),
    )
    .map((cell) => cell.trim());
}

// Words of a private vocabulary that a reader would need a glossary for: the field's own words say the same
// (layer, capability, public entry, composition root, edge, adapter, LLM client).
const PRIVATE_WORDS = /\b(?:(?:road|room|face|floor|ground|reach|pack|house)(?:s|es)?|hints?)\b/gi;

/** Whether a file or folder name has a private word as one of its words (`llm/model-road.ts`, `desk/_room.ts`). */
function hasPrivateWord(path: string): boolean {
  const word = new RegExp(`^${PRIVATE_WORDS.source}$`, 'i');
  return path.split(/[/._-]/).some((part) => word.test(part));
}

/** Each file or folder under `dir`, as a path relative to src/. */
function entriesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return [relative(SRC, path), ...(entry.isDirectory() ? entriesUnder(path) : [])];
  });
}

describe('ARCHITECTURE.md and the READMEs read plainly', () => {
  it('finds table cells and private words (a sanity check of the readers themselves)', () => {
    expect(tableCells('text | not a row\n| `a/` | b \\| c |\n|---|---|')).toEqual([
      '`a/`',
      'b \\| c',
      '---',
      '---',
    ]);
    expect('the floor, a road; interface, packages, reachable'.match(PRIVATE_WORDS)).toEqual([
      'floor',
      'road',
    ]);
    expect(
      ['llm/model-road.ts', 'desk/_room.ts', 'llm/client.ts', 'net/interface.ts'].filter(hasPrivateWord),
    ).toEqual(['llm/model-road.ts', 'desk/_room.ts']);
  });

  it(`keeps ARCHITECTURE.md within ${MAX_DOCUMENT_BYTES} bytes`, () => {
    expect(Buffer.byteLength(DOCUMENT)).toBeLessThanOrEqual(MAX_DOCUMENT_BYTES);
  });

  it(`keeps every table cell of ARCHITECTURE.md within ${MAX_TABLE_CELL} characters`, () => {
    const cells = tableCells(DOCUMENT);
    expect(cells.length).toBeGreaterThan(0);
    const long = cells.filter((cell) => cell.length > MAX_TABLE_CELL).map((cell) => `${cell.slice(0, 60)}…`);
    expect(long, 'table cells of ARCHITECTURE.md over the limit').toEqual([]);
  });

  it('uses no private words in ARCHITECTURE.md, the READMEs of src/, or the names of its files and folders', () => {
    const inDocuments = DOCUMENTS.flatMap(({ name, text }) =>
      [...text.matchAll(PRIVATE_WORDS)].map((match) => `${name}: ${match[0]}`),
    );
    const inNames = entriesUnder(SRC).filter(hasPrivateWord);
    expect([...inDocuments, ...inNames], 'private words, where the field has its own').toEqual([]);
  });
});

// test/ mirrors src/: a test folder is named after a folder of src/ (the capability, stage or edge whose modules it tests),
// or is one of the few that test no single folder.
const TEST = join(ROOT, 'test');
const TEST_ONLY_FOLDERS = ['e2e', 'support', 'fixtures', 'lint', 'readme'];
const CAPABILITIES = [...DOCUMENT.matchAll(/^\| `([a-z]+)\/` \|/gm)].map((match) => match[1]!);

describe('test/ mirrors src/', () => {
  const testFolders = readdirSync(TEST, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it('names every test folder after a folder of src/ (or e2e, support, fixtures, lint, readme)', () => {
    const strays = testFolders.filter(
      (folder) => !TOP_FOLDERS.has(folder) && !TEST_ONLY_FOLDERS.includes(folder),
    );
    expect(strays, 'test folders named after no folder of src/').toEqual([]);
  });

  it('gives every desk a test folder with tests in it', () => {
    expect(CAPABILITIES).toEqual(['editions', 'desk', 'subscribers', 'api', 'channels', 'backup', 'setup']);
    const untested = CAPABILITIES.filter(
      (desk) =>
        !existsSync(join(TEST, desk)) ||
        !readdirSync(join(TEST, desk)).some((name) => name.endsWith('.test.ts')),
    );
    expect(untested, 'capabilities without a test folder').toEqual([]);
  });
});

// A file's name says its subject and role on its own (`desk/views/board-page.ts`, `cli/commands/publish-command.ts`):
// no two modules under src/ share one, but for the three names every folder may have for the same role.
const FOLDER_ROLE_FILES = new Set(['index.ts', 'ports.ts', 'types.ts']);

/** Every file under `dir`, as a path relative to src/. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [relative(SRC, path)];
  });
}

describe('src/ file names', () => {
  it('are unique across the tree (index.ts, ports.ts and types.ts being a folder role)', () => {
    const byName = new Map<string, string[]>();
    for (const path of filesUnder(SRC)) {
      const name = basename(path);
      if (name.endsWith('.ts') && !FOLDER_ROLE_FILES.has(name))
        byName.set(name, [...(byName.get(name) ?? []), path]);
    }
    const shared = [...byName.values()].filter((paths) => paths.length > 1);
    expect(shared, 'src/ files sharing a name').toEqual([]);
  });
});
