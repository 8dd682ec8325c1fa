// What the editor's desk pages show: plain data the desk's use cases prepare and its renderers turn into HTML.
import type { Level } from '../../core/types.js';

export interface DeskPageContext {
  /** The signed-in editor's address; null on the sign-in page. */
  editor: string | null;
  /** The session's CSRF token, put into every form. */
  csrf: string;
  siteName: string;
}

export interface BoardCandidate {
  rank: number;
  key: string;
  title: string;
  url: string;
  source: string;
  score: number;
  relevance: number | null;
  triage: number | null;
  upvotes: number | null;
  citations: number | null;
  chosen: boolean;
  pinned: boolean;
  manual: boolean;
  /** Why it is in or out, in words. */
  why: string;
  signals: Record<string, number>;
}

export interface BoardItem {
  position: number;
  key: string;
  title: string;
  url: string;
  level: Level;
  summary: string;
  writer: string;
  edited: boolean;
  flagged: boolean;
}

export interface BoardDecision {
  itemKey: string;
  title: string;
  decision: string;
  by: string;
  at: string;
}

export interface BoardFilter {
  q: string;
  show: 'all' | 'chosen' | 'candidates' | 'pinned' | 'skipped' | 'excluded';
  source: string;
  page: number;
}

export interface BoardView {
  week: string;
  edition: {
    title: string;
    intro: string;
    writer: string;
    publishedAt: string | null;
    items: BoardItem[];
    headerEdited: boolean;
  } | null;
  approval: { by: string; at: string } | null;
  /**
   * Published or mailed: what readers have is frozen, so the board offers no change but a correction (the guard
   * would refuse each). The corrections published since revision 1, oldest first.
   */
  frozen: {
    publishedAt: string | null;
    mailed: number;
    /** The send log of the edition and of its latest correction notice, and who is still to be mailed each. */
    mailing: MailingState | null;
    revisions: { revision: number; at: string; reason: string; editor: string }[];
  } | null;
  /** Why the draft is thin (fewer items than selection.minItems), or null. */
  thin: string | null;
  /** Mail can go out (SMTP and the public address are configured): the test and send controls are shown. */
  canMail: boolean;
  itemCount: number;
  configuredCount: number;
  candidates: BoardCandidate[];
  totalCandidates: number;
  matchingCandidates: number;
  pageSize: number;
  excluded: { key: string; reason: string }[];
  decisions: BoardDecision[];
  sources: string[];
  filter: BoardFilter;
  triage: string | null;
  notice: string | null;
}

export interface ClaimView {
  kind: string;
  claim: string;
  verdict: string;
  quote: string | null;
  reason: string | null;
}

export interface FieldView {
  field: 'summary' | 'takeaways' | 'level' | 'title' | 'intro' | 'facts';
  label: string;
  generated: string;
  /** The editor's version, or null when the generated text is in use. */
  edited: string | null;
  editedBy: string | null;
  editedAt: string | null;
}

export interface ItemEditView {
  week: string;
  /** '' for the edition's title and intro. */
  key: string;
  title: string;
  url: string | null;
  version: number;
  fields: FieldView[];
  /** Current values as the form shows them. */
  values: {
    summary?: string;
    takeaways?: [string, string, string];
    level?: Level;
    title?: string;
    intro?: string;
    /** The practitioner facts line as the editor edits it ("Code https://… · Apache-2.0"). */
    facts?: string;
  };
  flags: { status: string; flagged: boolean; claims: ClaimView[]; notes: string[] } | null;
  writer: string | null;
  /** Set when the save was refused because someone saved first: what they saved and what this editor sent. */
  conflict: { theirs: FieldView[]; yours: Record<string, string> } | null;
  notice: string | null;
  llmAvailable: boolean;
}

export interface AuditView {
  entries: {
    at: string;
    editor: string;
    action: string;
    week: string | null;
    itemKey: string | null;
    detail: string;
  }[];
}

export interface ApproveView {
  week: string;
  title: string;
  items: number;
  /** Why the edition is thin (fewer items than selection.minItems), or null. */
  thin: string | null;
  /** Readers the send after approval would mail: confirmed, and not sent this edition already. */
  confirmedSubscribers: number;
  flagged: { key: string; title: string; status: string }[];
  approval: { by: string; at: string } | null;
  publishedAt: string | null;
  canPublish: string | null;
}

export interface MailingState {
  /** The edition's send log by state: the board's progress and result. */
  edition: { sent: number; failed: number; uncertain: number; waiting: number; skipped: number };
  /** Confirmed readers not sent the edition yet. */
  toMail: number;
  /** The latest correction: its revision, the notices sent, and readers of an earlier revision not told yet. */
  notice: { revision: number; sent: number; toMail: number } | null;
  /** The week's latest send set for later, unless cancelled. */
  scheduled: ScheduledSendView | null;
}

/** A send set for later, in the zone it was set in and in UTC. */
export interface ScheduledSendView {
  state: 'scheduled' | 'started' | 'done';
  /** `2026-05-11 08:00` in `zone`. */
  local: string;
  zone: string;
  /** `2026-05-11 06:00` in UTC. */
  utc: string;
  by: string;
}

/** The confirmation of a desk send: the edition, or the correction notice of its latest revision. */
export interface SendView {
  week: string;
  kind: 'edition' | 'notice';
  title: string;
  revision: number;
  /** Readers the send would mail now (the notice: those sent an earlier revision, not told yet). */
  readers: number;
  /** The edition's readers by the language of their mail, and how many chose topics (null for the notice). */
  breakdown: { byLanguage: { language: string; readers: number }[]; withTopics: number } | null;
  /** The zone "Send at…" reads its time in unless the browser says its own (schedule.timeZone). */
  timeZone: string;
  /** A send of the edition already set for later. */
  scheduled: ScheduledSendView | null;
}

/** The correction draft of a published edition: the text a correction may change, in the published order. */
export interface CorrectionView {
  week: string;
  /** The revision live now; approving publishes the next. */
  revision: number;
  title: string;
  intro: string;
  items: { key: string; title: string; summary: string; takeaways: string[]; level: string }[];
}
