// The narrow ports of the desk's use cases: the parts of DigestDeps (src/deps.ts) and the store's port groups
// (src/store/types.ts) each one reads, so a signature says what it can reach. The full deps stay where they are
// handed on whole: the desk's own assembly (desk.ts, room.ts) and the use cases that run another room's use case
// (build, add, list, publish, send, the stored-paper reader), whose faces take DigestDeps.
import type { DigestDeps } from '../deps.js';
import type {
  CachePort,
  CandidatesPort,
  DeskPort,
  EditionsPort,
  EditorsPort,
  SubscribersPort,
  TranslationsPort,
} from '../store/types.js';

/** Who may sign in (`digest editors add|list|remove`). */
export type EditorsDeps = { store: EditorsPort };

/** Writing to the audit log (it lives with the desk's per-week state). */
export type AuditDeps = { store: DeskPort };

/** Sign-in and sessions: editors, their sessions and the audit log; the clock for expiry and the rate limits. */
export type AuthDeps = Pick<DigestDeps, 'clock'> & { store: EditorsPort & DeskPort };

/** The week's stored draft (is it there, is it published). */
export type DraftDeps = { store: EditionsPort };

/** The draft and the desk's per-week state: edits, decisions, count and order, approvals, the audit log. */
export type WeekStoreDeps = { store: EditionsPort & DeskPort };

/** The same, with the config (items per edition, whether an LLM writes). */
export type WeekDeps = Pick<DigestDeps, 'config'> & WeekStoreDeps;

/** Previewing the draft as it will go out (the site's and the email's renderers read the config). */
export type PreviewDeps = Pick<DigestDeps, 'config'> & DraftDeps;

/** The approval page: the week's state and how many confirmed readers a send would reach. */
export type ApprovalDeps = Pick<DigestDeps, 'config'> & { store: EditionsPort & DeskPort & SubscribersPort };

/** The week's translations beside the original, and the editor's corrections (audited). */
export type TranslationDeps = Pick<DigestDeps, 'config'> & {
  store: EditionsPort & TranslationsPort & DeskPort;
};

/** What a regeneration rewrites: the draft and the stored items it was written from. */
export type TargetDeps = { store: EditionsPort & CandidatesPort };

/** A model road of its own for one regeneration: the LLM config, its answer cache, secrets, logging, abort. */
export type RoadDeps = Pick<DigestDeps, 'config' | 'log' | 'env' | 'signal'> & { store: CachePort };
