// reach/ — how readers and tools reach the published archive beyond the site: the JSON API (its input schemas and
// OpenAPI document), the MCP server (HTTP and stdio), chat posts and drafts pushed to e-mail services.
// This file is the room's one face: other rooms, the composition root and the entry points import only it.
import type { Archive } from './archive.js';
import type { ChatInput, ChatOutcome, ChatStep, PushInput, PushOutcome } from './channels.js';
import type { StdioOptions } from './mcp.js';
import type { ChannelDeps } from './ports.js';

export {
  editionDateInput,
  firstIssue,
  itemKeyInput,
  languageInput,
  listEditionsInput,
  searchItemsInput,
} from './api-schemas.js';
export { API_BASE, API_VERSION, type Archive, createArchive } from './archive.js';
export type { ChatInput, ChatOutcome, ChatStep, PushInput, PushOutcome } from './channels.js';
export { openApiDocument } from './openapi.js';

export async function createMcpServer(archive: Archive, options: { version: string }) {
  return (await import('./mcp.js')).createMcpServer(archive, options);
}

/** `digest mcp`: the archive over stdio until stdin ends or the signal aborts. */
export async function serveMcpOverStdio(archive: Archive, options: StdioOptions): Promise<void> {
  return (await import('./mcp.js')).serveMcpOverStdio(archive, options);
}

export async function chat(deps: ChannelDeps, input: ChatInput): Promise<ChatOutcome> {
  return (await import('./channels.js')).chat(deps, input);
}

/** The chat step of `publish`: reported, never thrown, so a chat failure cannot undo a publish. */
export async function chatAfterPublish(
  deps: ChannelDeps,
  input: { week: string; baseUrl: string },
): Promise<ChatStep> {
  return (await import('./channels.js')).chatAfterPublish(deps, input);
}

export async function push(deps: ChannelDeps, input: PushInput): Promise<PushOutcome> {
  return (await import('./channels.js')).push(deps, input);
}
