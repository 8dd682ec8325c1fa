// Prompts live in prompts/*.md next to this module: a "version: name-N" line, then "## system" and "## user" sections with
// {{placeholders}}. Untrusted values are neutralised before they are placed, and placed in one pass, so nothing in
// the data can close our delimiters or expand another placeholder.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { WriterError } from '../core/errors.js';
import { normaliseText } from './sentences.js';

export type PromptName = 'item' | 'edition' | 'check' | 'translate';

export interface PromptTemplate {
  name: PromptName;
  /** Declared version plus a hash of the file, so an edited prompt never reuses cached answers. */
  version: string;
  system: string;
  user: string;
}

const templates = new Map<PromptName, PromptTemplate>();

export function loadPrompt(name: PromptName): PromptTemplate {
  const cached = templates.get(name);
  if (cached) return cached;
  // Up and into write/: the same folder from src/write/ and from the CLI's dist/cli/ (scripts/build.mjs).
  const url = new URL(`../write/prompts/${name}.md`, import.meta.url);
  let content: string;
  try {
    content = readFileSync(url, 'utf8');
  } catch (error) {
    throw new WriterError(`Prompt file missing: ${url.pathname}. Reinstall the package.`, { cause: error });
  }
  const declared = /^version:\s*(\S+)\s*$/m.exec(content)?.[1];
  const system = /^## system[ \t]*\n([\s\S]*?)^## user[ \t]*$/m.exec(content)?.[1];
  const user = /^## user[ \t]*\n([\s\S]*)/m.exec(content)?.[1];
  if (!declared || system === undefined || user === undefined) {
    throw new WriterError(
      `Prompt ${name}.md needs a "version:" header and "## system" / "## user" sections.`,
    );
  }
  const hash = createHash('sha256').update(content).digest('hex').slice(0, 8);
  const template = { name, version: `${declared}#${hash}`, system: system.trim(), user: user.trim() };
  templates.set(name, template);
  return template;
}

/**
 * Untrusted text as prompt data: whitespace-normalised, and every angle bracket replaced by a look-alike so no
 * sequence in it can open or close a delimiter ("</source_text>", "<system>"). Quote checks fold them back.
 */
export function asPromptData(text: string): string {
  return normaliseText(text).replace(/</g, '‹').replace(/>/g, '›');
}

/** Fills {{key}} placeholders in one pass; unknown keys are an error (a typo would silently drop data). */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new WriterError(`Prompt placeholder {{${key}}} has no value.`);
    return value;
  });
}

export function renderPrompt(
  name: PromptName,
  values: Record<string, string>,
): { system: string; user: string; version: string } {
  const template = loadPrompt(name);
  return {
    system: fillTemplate(template.system, values),
    user: fillTemplate(template.user, values),
    version: template.version,
  };
}

/** Cuts text to about `maxTokens` (≈ 4 characters a token), at a sentence end when one is near. */
export function truncateToTokens(text: string, maxTokens: number): { text: string; truncated: boolean } {
  const normalised = normaliseText(text);
  const maxChars = maxTokens * 4;
  if (normalised.length <= maxChars) return { text: normalised, truncated: false };
  const cut = normalised.slice(0, maxChars);
  const sentenceEnd = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('? '), cut.lastIndexOf('! '));
  const end = sentenceEnd > maxChars * 0.6 ? sentenceEnd + 1 : cut.lastIndexOf(' ');
  return { text: cut.slice(0, end > 0 ? end : maxChars), truncated: true };
}
