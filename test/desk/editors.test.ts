// Editors' addresses follow the readers' one rule (core/email-address.ts): the same normal form, the same refusals,
// each naming the "email" field.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { addEditor, listEditors, removeEditor } from '../../src/desk/editors.js';
import { useTestStore } from '../support/database.js';

const PASSWORD = 'correct horse battery staple';

describe('editors', () => {
  const store = useTestStore();

  it("keeps an address in the readers' normal form, so one person is one account", async () => {
    const deps = { store: store() };
    const editor = await addEditor(deps, { email: '  Ed@Bücher.Example ', password: PASSWORD });
    expect(editor.email).toBe('ed@xn--bcher-kva.example');
    await expect(addEditor(deps, { email: 'ED@bücher.example', password: PASSWORD })).rejects.toThrow(
      /already an editor/,
    );
    expect(await removeEditor(deps, { email: 'ed@BÜCHER.example' })).toBe(true);
    expect(await listEditors(deps)).toEqual([]);
  });

  it('refuses what is not an address with the reason, naming the field', async () => {
    const deps = { store: store() };
    for (const [email, reason] of [
      ['ed@example.com\r\nBcc: x@example.org', /line breaks or control characters/],
      ['ed"quoted"@example.com', /before "@"/],
      ['ed@localhost', /after "@"/],
      ['no-at-sign', /like name@example\.com/],
    ] as const) {
      const error = await addEditor(deps, { email, password: PASSWORD }).catch((caught: unknown) => caught);
      expect(error, email).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message, email).toMatch(reason);
      expect(JSON.stringify(error), email).toContain('"path":"email"');
    }
    expect(await removeEditor(deps, { email: 'no-at-sign' })).toBe(false);
    expect(await listEditors(deps)).toEqual([]);
  });
});
