// An edition's translations: one row per edition and language. A new translation replaces the generated text and
// keeps the editor's edits (stored apart, laid over it when read), as the desk does for the written language.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { EditionTranslation } from '../core/types.js';
import { bindQueries } from './_bind.js';
import { json } from './_values.js';
import type { Database } from './schema.js';

/** An edition's other languages. */
export interface TranslationsPort {
  save(date: string, translation: EditionTranslation, warnings: readonly string[]): Promise<void>;
  /** False when the edition has no such language yet. */
  saveEdit(date: string, language: string, edited: EditionTranslation): Promise<boolean>;
  list(date: string): Promise<StoredTranslation[]>;
}

export function translationsStore(db: Kysely<Database>): TranslationsPort {
  return bindQueries(db, { save: saveTranslation, saveEdit: saveTranslationEdit, list: getTranslations });
}

export interface StoredTranslation {
  translation: EditionTranslation;
  /** Fields that kept the original text, and why. */
  warnings: string[];
  /** True when an editor changed it (the edits are already laid over `translation`). */
  edited: boolean;
}

async function saveTranslation(
  db: Kysely<Database>,
  date: string,
  translation: EditionTranslation,
  warnings: readonly string[],
): Promise<void> {
  await db
    .insertInto('edition_translations')
    .values({
      edition_date: date,
      language: translation.language,
      generated: json(translation),
      warnings: json(warnings),
      writer: translation.writer,
    })
    .onConflict((conflict) =>
      conflict.columns(['edition_date', 'language']).doUpdateSet((eb) => ({
        generated: eb.ref('excluded.generated'),
        warnings: eb.ref('excluded.warnings'),
        writer: eb.ref('excluded.writer'),
        updated_at: sql`now()`,
      })),
    )
    .execute();
}

/** An editor's version of a language (a whole translation: what the desk's form shows and sends back). */
async function saveTranslationEdit(
  db: Kysely<Database>,
  date: string,
  language: string,
  edited: EditionTranslation,
): Promise<boolean> {
  const result = await db
    .updateTable('edition_translations')
    .set({ edited: json(edited), updated_at: sql`now()` })
    .where('edition_date', '=', date)
    .where('language', '=', language)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Every language of an edition, in no particular order; the editor's version where there is one. */
async function getTranslations(db: Kysely<Database>, date: string): Promise<StoredTranslation[]> {
  const rows = await db
    .selectFrom('edition_translations')
    .select(['generated', 'edited', 'warnings'])
    .where('edition_date', '=', date)
    .orderBy('language')
    .execute();
  return rows.map((row) => ({
    translation: (row.edited ?? row.generated) as EditionTranslation,
    warnings: Array.isArray(row.warnings) ? row.warnings : [],
    edited: row.edited !== null && row.edited !== undefined,
  }));
}
