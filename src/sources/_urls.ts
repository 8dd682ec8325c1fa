// Links found in content are data: they become item URLs only when they are absolute http(s) after resolving
// (the rule itself is core/urls.ts httpUrl()).
import { httpUrl } from '../core/urls.js';

/** A base URL usable for resolving: `candidate` resolved against `parent`, when the result is http(s). */
export function resolveBase(
  candidate: string | null | undefined,
  parent: string | null | undefined,
): string | null {
  return httpUrl(candidate, parent ?? undefined) ?? (parent ? httpUrl(parent) : null);
}

/** `template` with `{date}` replaced by `day` (YYYY-MM-DD). */
export function urlForDay(template: string, day: string): string {
  return template.replaceAll('{date}', day);
}
