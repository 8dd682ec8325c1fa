// The naming and repeat rules of `npm run lint` (scripts/check-names.mjs): a house word in a file, folder or export
// name, a command module that creates its command itself, and copied runs past the ceiling each fail; the field's
// words, declareCommand and code written once pass.
import { describe, expect, it } from 'vitest';
import { lintScript } from '../support/lint-script.js';

const check = lintScript('check-names.mjs');

/** Six lines of code that differ from every other copy only by `seed`, so identical copies are exact repeats. */
const run = (seed: string) =>
  Array.from({ length: 6 }, (_, i) => `  const value${i} = compute('${seed}', ${i});`).join('\n');

describe('scripts/check-names.mjs', () => {
  it('names a house word in a file name, a folder name and an exported symbol, and exits 1', () => {
    const { status, out } = check({
      'llm/model-road.ts': 'export const one = 1;\n',
      'reach/index.ts': 'export const two = 2;\n',
      'desk/context.ts': 'export interface DeskRoom { id: string }\nexport function createDeskRoom() {}\n',
    });
    expect(status).toBe(1);
    expect(out).toContain('src/llm/model-road.ts the file name uses "road"');
    expect(out).toContain('src/reach the folder name uses "reach"');
    expect(out).toContain('src/desk/context.ts:1 the export DeskRoom uses "room"');
    expect(out).toContain('src/desk/context.ts:2 the export createDeskRoom uses "room"');
  });

  it('passes the words of the field, and words that only contain a house word (interface, surface)', () => {
    const { status, out } = check({
      'llm/client.ts':
        'export interface LlmClient { surface: string }\nexport type InterfaceName = string;\n',
      'desk/desk-context.ts': 'export function createDeskContext() {}\n',
    });
    expect(status, out).toBe(0);
  });

  it('refuses a command module that creates its command with program.command()', () => {
    const own = check({
      'cli/commands/build-command.ts':
        "export function register(program) {\n  program\n    .command('build')\n    .description('x');\n}\n",
      'cli/commands/list-command.ts': "export function register(program) { program.command('list'); }\n",
    });
    expect(own.status).toBe(1);
    expect(own.out).toContain('src/cli/commands/build-command.ts:2 creates a command itself');
    expect(own.out).toContain('src/cli/commands/list-command.ts:1 creates a command itself');
    const declared = check({
      'cli/commands/list-command.ts':
        "export function register(program) { declareCommand(program, 'list').option('--x'); }\n",
    });
    expect(declared.status, declared.out).toBe(0);
  });

  it('counts the pairs of places that share six identical lines, and fails past six', () => {
    const files = (copies: number) =>
      Object.fromEntries(
        Array.from({ length: copies }, (_, i) => [
          `copy-${i}.ts`,
          `export function f${i}() {\n${run(`pair-${Math.floor(i / 2)}`)}\n}\n`,
        ]),
      );
    const six = check(files(12));
    expect(six.status, six.out).toBe(0);
    expect(six.out).toContain('6 repeated runs (at most 6)');
    const seven = check(files(14));
    expect(seven.status).toBe(1);
    expect(seven.out).toContain('7 repeated runs (at most 6)');
    expect(seven.out).toMatch(/src\/copy-0\.ts:\d+ ~ src\/copy-1\.ts:\d+ share 6\+ identical lines/);
  });
});
