// The narrow ports of the desk's use cases: the parts of DigestDeps (src/deps.ts) and the store's groups
// (src/store/types.ts) each one reads, so a signature says what it can reach. Another capability's use case (build, add,
// publish, send, the stored-paper reader) is reached through `runs`, which capability.ts binds to the full deps once:
// only the desk's own assembly (index.ts, desk.ts, capability.ts) holds DigestDeps.
import type { PaperText } from '../core/types.js';
import type { DigestDeps } from '../deps.js';
import type {
  AddInput,
  BuildInput,
  BuildOutcome,
  CorrectInput,
  CorrectOutcome,
  GuardStore,
  LlmDeps,
  PublishInput,
  PublishOutcome,
} from '../editions/index.js';
import type { ScheduledSend } from '../store/scheduled-sends.js';
import type { Store } from '../store/types.js';
import type {
  ScheduleSendInput,
  SendInput,
  SendOutcome,
  SendTestInput,
  SendTestOutcome,
} from '../subscribers/index.js';
import type { DeskActionContext, DeskOutcome } from './outcome.js';

/** The other capabilities' use cases a desk action runs, bound to the full deps by capability.ts. */
export interface DeskRuns {
  build(input: BuildInput): Promise<BuildOutcome>;
  /** The key of the item added (or found stored) for the week. */
  add(input: AddInput): Promise<{ key: string }>;
  publish(input: PublishInput): Promise<PublishOutcome>;
  send(input: SendInput): Promise<SendOutcome>;
  /** A "[Test]" copy of the week's mail to one address: no send-log row, links that count nothing. */
  sendTest(input: SendTestInput): Promise<SendTestOutcome>;
  /** The full text an earlier build stored for a paper (nothing is fetched). */
  readStoredPaper(arxivId: string): Promise<PaperText | undefined>;
  /** `digest correct`'s use case: publishes a corrected edition as its next revision. */
  correct(input: CorrectInput): Promise<CorrectOutcome>;
  /** "Send at…": the week's send set for later (`digest send --at`'s use case); and its cancel. */
  scheduleSend(input: ScheduleSendInput): Promise<ScheduledSend>;
  cancelScheduledSend(input: { week?: string | undefined }): Promise<ScheduledSend | null>;
  /** The desk's own rebuild of the draft, as a job (desk-jobs.ts: its own process in `digest serve`). */
  rebuildDraft(context: DeskActionContext): Promise<DeskOutcome>;
  /** A change queued confirmation mails: `digest serve`'s outbox sends them now (DeskOptions.mailsQueued). */
  wakeOutbox(): void;
}

/** The use cases of other capabilities an action runs, by name. */
export type RunsDeps<Name extends keyof DeskRuns> = { runs: Pick<DeskRuns, Name> };

/** Who may sign in (`digest editors add|list|remove`). */
export type EditorsDeps = { store: Pick<Store, 'editors'> };

/** Writing to the audit log (it lives with the desk's per-week state). */
export type AuditDeps = { store: Pick<Store, 'desk'> };

/** Sign-in and sessions: editors, their sessions and the audit log; the clock for expiry and the rate limits. */
export type AuthDeps = Pick<DigestDeps, 'clock'> & { store: Pick<Store, 'editors' | 'desk' | 'rateLimits'> };

/** The week's stored draft (is it there, is it published or mailed: the editions capability's guard reads both). */
export type DraftDeps = { store: GuardStore };

/** The draft and the desk's per-week state: edits, decisions, count and order, approvals, the audit log. */
export type WeekStoreDeps = {
  store: Pick<Store, 'editions' | 'desk' | 'decisions' | 'scheduledSends'> & GuardStore;
};

/** A published week's mail: the send log, and a send set for later. */
export type MailingDeps = { store: GuardStore & Pick<Store, 'scheduledSends'> };

/** The same, with the config (items per edition, whether an LLM writes). */
export type WeekDeps = Pick<DigestDeps, 'config'> & WeekStoreDeps;

/** Previewing the draft as it will go out (the site's and the email's renderers read the config). */
export type PreviewDeps = Pick<DigestDeps, 'config'> & DraftDeps;

/** The approval page: the week's state and how many confirmed readers a send would reach. */
export type ApprovalDeps = Pick<DigestDeps, 'config'> & {
  store: Pick<Store, 'editions' | 'desk' | 'decisions' | 'subscribers'> & GuardStore;
};

/** The week's translations beside the original, and the editor's corrections (audited). */
export type TranslationDeps = Pick<DigestDeps, 'config'> & {
  store: Pick<Store, 'editions' | 'translations' | 'desk' | 'decisions'> & GuardStore;
};

/** What a regeneration rewrites: the draft and the stored items it was written from. */
export type TargetDeps = { store: Pick<Store, 'editions' | 'items'> & GuardStore };

/** A regeneration builds a LLM client of its own: the same deps as the editions capability's (`LlmDeps`). */
export type { LlmDeps };

/** Regenerating one item or the header: the draft, the editor's versions, the stored items, a LLM client. */
export type RegenerateDeps = LlmDeps &
  RunsDeps<'readStoredPaper'> & { store: Pick<Store, 'editions' | 'desk' | 'items'> & GuardStore };

/** Sending in the background after approval: the subscribers capability's send, its outcome audited or logged. */
export type ApprovalSendDeps = AuditDeps & Pick<DigestDeps, 'log'> & RunsDeps<'send'>;

/**
 * What the desk's pages and actions use between them, as capability.ts hands it out: the ports above (seven of the store's
 * groups, not the sign-in's editors) and every run.
 */
/** What readers did with a published edition: its items, their clicks, the mails and what followed. */
export type ReaderStatsDeps = { store: Pick<Store, 'editions' | 'clicks' | 'mailOutcomes'> };

/** The reader list, one reader's record, adding, importing and removing (audited): the subscribers' list ports. */
export type ReaderListDeps = Pick<DigestDeps, 'config'> & {
  store: Pick<Store, 'subscribers' | 'preferences' | 'readers' | 'desk'>;
};

export type DeskDeps = ApprovalDeps &
  ReaderStatsDeps &
  MailingDeps &
  ReaderListDeps &
  TranslationDeps &
  RegenerateDeps &
  Pick<DigestDeps, 'clock'> & { runs: DeskRuns };
