// The readers on the desk: the list (search, filters, counts, pages), one reader's record, and the changes — add
// one, import a CSV, remove one — each the subscribers capability's use case, run with who acts and audited. The
// audit names the reader by row only: after a removal, the log keeps that it happened, never the address.
import { ConfigError, NotFoundError } from '../core/errors.js';
import {
  addSubscriber,
  confirmationMailReady,
  describeImport,
  findReaders,
  importSubscribers,
  parseReaderFilter,
  readerRecord,
  removeReader,
} from '../subscribers/index.js';
import type { DeskSession } from './auth.js';
import type { DeskContext } from './desk-context.js';
import { type DeskReply, messagePage, page, redirect } from './replies.js';
import { READER_NOTICES, renderImportResult, renderReaderList } from './views/reader-list-page.js';
import { renderReaderRecord } from './views/reader-page.js';

type Query = Record<string, string | undefined>;
type Form = Record<string, string>;

const LIST = '/admin/readers';
const readerId = (value: string) => (/^[1-9]\d{0,9}$/.test(value) ? Number(value) : null);

/** The consent box: ticked, the editor asserts the readers agreed; otherwise each gets a confirmation mail. */
const consentBy = (session: DeskSession, form: Form) =>
  form.consent === 'yes' ? session.editor.email : null;

export function readerDesk(desk: DeskContext) {
  return { ...readerPages(desk), ...readerChanges(desk) };
}

const auditOf =
  (desk: DeskContext) => (session: DeskSession, action: string, detail: Record<string, unknown>) =>
    desk.deps.store.desk.recordAudit({
      editor: session.editor.email,
      action,
      week: null,
      itemKey: null,
      detail,
    });

/** What a GET shows: the list, one reader, their export (audited: it hands out a person's data). */
function readerPages(desk: DeskContext) {
  const { deps } = desk;
  const audit = auditOf(desk);
  return {
    async readerList(session: DeskSession, query: Query): Promise<DeskReply> {
      const view = await findReaders(deps, parseReaderFilter(query, deps.config.languages));
      const notice = query.done ? (READER_NOTICES[query.done] ?? null) : null;
      // The form offers adding without asserted consent only when the server would accept it: a mail can go out.
      const canMail = confirmationMailReady(deps.config);
      return page(
        renderReaderList(desk.context(session), {
          ...view,
          notice,
          canMail,
          languages: deps.config.languages,
        }),
      );
    },

    async readerPage(session: DeskSession, id: string): Promise<DeskReply | null> {
      const row = readerId(id);
      if (row === null) return null;
      try {
        return page(renderReaderRecord(desk.context(session), await readerRecord(deps, row)));
      } catch (error) {
        if (error instanceof NotFoundError) return null;
        throw error;
      }
    },

    /** The reader's record as JSON, the same as `digest subscribers export <email>`. */
    async exportReader(session: DeskSession, id: string): Promise<DeskReply | null> {
      const row = readerId(id);
      if (row === null) return null;
      const data = await readerRecord(deps, row).catch((error: unknown) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      });
      if (!data) return null;
      await audit(session, 'reader-exported', { subscriberId: row });
      return {
        kind: 'file',
        status: 200,
        contentType: 'application/json; charset=utf-8',
        body: `${JSON.stringify(data, null, 2)}\n`,
      };
    },
  };
}

/** What a POST changes: add, import, remove — each audited with the reader's row, never their address. */
function readerChanges(desk: DeskContext) {
  const { deps } = desk;
  const audit = auditOf(desk);
  /** A refused change (bad address, mail not set up, gone): its page, with the reason in the editor's words. */
  const refusal = (session: DeskSession, error: unknown, title: string): DeskReply => {
    if (error instanceof ConfigError)
      return messagePage(desk.context(session), { title, message: error.message, back: LIST }, 400);
    if (error instanceof NotFoundError)
      return messagePage(desk.context(session), { title, message: error.message, back: LIST }, 404);
    throw error;
  };
  return {
    async addReader(session: DeskSession, form: Form): Promise<DeskReply> {
      const by = consentBy(session, form);
      try {
        const result = await addSubscriber(deps, {
          email: form.email ?? '',
          consentBy: by,
          by: session.editor.email,
        });
        if (result.mailed) deps.runs.wakeOutbox();
        await audit(session, 'reader-added', {
          subscriberId: result.subscriber.id,
          outcome: result.outcome,
          consentAsserted: by !== null,
          mailed: result.mailed,
        });
        return redirect(`${LIST}?done=${noticeOfAdd(result.outcome, result.mailed)}`);
      } catch (error) {
        return refusal(session, error, 'Not added');
      }
    },

    async importReaders(session: DeskSession, form: Form, csv: string | null): Promise<DeskReply> {
      const by = consentBy(session, form);
      if (!csv) {
        const message = 'Choose a CSV file with an "email" column to import.';
        return messagePage(desk.context(session), { title: 'Nothing imported', message, back: LIST }, 400);
      }
      try {
        const report = await importSubscribers(deps, { csv, consentBy: by, by: session.editor.email });
        if (report.mailed > 0) deps.runs.wakeOutbox();
        const { invalid, ...counts } = report;
        await audit(session, 'readers-imported', {
          ...counts,
          consentBy: undefined,
          consentAsserted: by !== null,
          invalid: invalid.length,
        });
        return page(renderImportResult(desk.context(session), { report, summary: describeImport(report) }));
      } catch (error) {
        return refusal(session, error, 'Nothing imported');
      }
    },

    async removeReader(session: DeskSession, id: string, form: Form): Promise<DeskReply | null> {
      const row = readerId(id);
      if (row === null) return null;
      if (form.sure !== 'yes') {
        const message = 'Tick the box to confirm that this reader is to be deleted for good.';
        return messagePage(
          desk.context(session),
          { title: 'Not removed', message, back: `${LIST}/${row}` },
          400,
        );
      }
      if (!(await removeReader(deps, row))) return null;
      await audit(session, 'reader-removed', { subscriberId: row });
      return redirect(`${LIST}?done=removed`);
    },
  };
}

function noticeOfAdd(outcome: string, mailed: boolean): string {
  if (outcome === 'added') return mailed ? 'added-mailed' : 'added-confirmed';
  return outcome;
}
