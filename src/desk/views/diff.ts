// A word-level diff of the generated text and the editor's version, as <del>/<ins> markup (escaped like any text).
import { type Fragment, html, join } from '../../publish/template.js';

type Part = { kind: 'same' | 'removed' | 'added'; text: string };

const MAX_WORDS = 600;

function wordDiff(before: string, after: string): Part[] {
  const a = before.split(/(\s+)/).filter(Boolean);
  const b = after.split(/(\s+)/).filter(Boolean);
  if (a.length > MAX_WORDS || b.length > MAX_WORDS) {
    return [
      { kind: 'removed', text: before },
      { kind: 'added', text: after },
    ];
  }
  // Longest common subsequence, table from the end.
  const table: number[][] = Array.from({ length: a.length + 1 }, () =>
    new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i]![j] =
        a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const parts: Part[] = [];
  const push = (kind: Part['kind'], text: string) => {
    const last = parts[parts.length - 1];
    if (last?.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push('same', a[i]!);
      i++;
      j++;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) push('removed', a[i++]!);
    else push('added', b[j++]!);
  }
  while (i < a.length) push('removed', a[i++]!);
  while (j < b.length) push('added', b[j++]!);
  return parts;
}

export function renderDiff(before: string, after: string): Fragment {
  return html`<p class="diff">${join(
    wordDiff(before, after).map((part) =>
      part.kind === 'same'
        ? html`${part.text}`
        : part.kind === 'removed'
          ? html`<del>${part.text}</del>`
          : html`<ins>${part.text}</ins>`,
    ),
    '',
  )}</p>`;
}
