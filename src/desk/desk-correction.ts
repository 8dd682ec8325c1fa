// "Correct this edition" on the desk: a correction draft of a published edition — its title, intro and each item's
// title, summary, takeaways and level, in the published order — that the editor edits and approves with a reason.
// The item set and order are the published edition's: the form cannot add, drop or reorder items (the keys are read
// from the edition, never from the form). Approving runs the same use case as `digest correct` (editions/correct.ts),
// which publishes revision N+1 and records it in the audit with the editor.
import { ConfigError } from '../core/errors.js';
import { type Edition, editionRevision, LEVELS } from '../core/types.js';
import { type DeskActionContext, type DeskOutcome, refused } from './outcome.js';
import type { RunsDeps } from './ports.js';
import type { CorrectionView } from './views/view-model.js';

type Form = Record<string, string>;
type EditionsDeps = { store: { editions: { get(week: string): Promise<Edition | null> } } };

/** The correction draft of a published edition, or null when the week has no published edition. */
export async function correctionView(deps: EditionsDeps, week: string): Promise<CorrectionView | null> {
  const edition = await deps.store.editions.get(week);
  if (!edition?.publishedAt) return null;
  return {
    week,
    revision: editionRevision(edition),
    title: edition.title,
    intro: edition.intro,
    items: edition.items.map(({ key, title, summary, takeaways, level }) => ({
      key,
      title,
      summary,
      takeaways: [takeaways[0] ?? '', takeaways[1] ?? '', takeaways[2] ?? ''],
      level,
    })),
  };
}

/** Publishes the edited draft as the next revision through `digest correct`'s use case. */
export async function correctOnDesk(
  deps: EditionsDeps & RunsDeps<'correct'>,
  context: DeskActionContext & { siteDir: string },
  form: Form,
): Promise<DeskOutcome> {
  const view = await correctionView(deps, context.week);
  if (!view)
    return refused(404, 'Not published', `There is no published edition of ${context.week} to correct.`);
  const reason = (form.reason ?? '').trim();
  if (!reason)
    return refused(400, 'No reason', 'Say why the edition is corrected: readers see it on the page.');
  const corrected = {
    title: form.title ?? '',
    intro: form.intro ?? '',
    // By the published order: whatever the form says about keys or order, the items stay the published ones.
    items: view.items.map((item, index) => ({
      key: item.key,
      title: form[`title-${index}`] ?? '',
      summary: form[`summary-${index}`] ?? '',
      takeaways: [1, 2, 3].map((n) => form[`takeaway${n}-${index}`] ?? ''),
      level: LEVELS.find((level) => level === form[`level-${index}`]) ?? '',
    })),
  };
  try {
    const outcome = await deps.runs.correct({
      week: context.week,
      reason,
      editor: context.editor,
      corrected,
      outDir: context.siteDir,
    });
    return { ok: true, done: outcome.revision > 0 ? 'corrected' : 'unchanged' };
  } catch (error) {
    if (error instanceof ConfigError) return refused(400, 'Not corrected', error.message);
    throw error;
  }
}
