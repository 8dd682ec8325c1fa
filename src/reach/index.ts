// reach/ — how readers and tools reach the published archive beyond the site: the JSON API (its input schemas and
// OpenAPI document), the MCP server (HTTP and stdio), chat posts and drafts pushed to e-mail services.
import { lazy } from '../core/lazy.js';

export {
  editionDateInput,
  firstIssue,
  itemKeyInput,
  languageInput,
  listEditionsInput,
  searchItemsInput,
} from './api-schemas.js';
export { API_BASE, API_VERSION, type Archive, createArchive } from './archive.js';
export type { ChatInput, ChatStep, PushInput } from './channels.js';
export { openApiDocument } from './openapi.js';

export const createMcpServer = lazy(async () => (await import('./mcp.js')).createMcpServer);

/** `digest mcp`: the archive over stdio until stdin ends or the signal aborts. */
export const serveMcpOverStdio = lazy(async () => (await import('./mcp.js')).serveMcpOverStdio);

export const chat = lazy(async () => (await import('./channels.js')).chat);

/** The chat step of `publish`: reported, never thrown, so a chat failure cannot undo a publish. */
export const chatAfterPublish = lazy(async () => (await import('./channels.js')).chatAfterPublish);

export const push = lazy(async () => (await import('./channels.js')).push);
