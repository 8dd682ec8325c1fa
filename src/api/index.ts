// api/ — the published archive for programs: the read-only JSON API (its input schemas and OpenAPI document) and the
// MCP server (HTTP and stdio).
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
export { openApiDocument } from './openapi.js';

export const createMcpServer = lazy(async () => (await import('./mcp.js')).createMcpServer);

/** `digest mcp`: the archive over stdio until stdin ends or the signal aborts. */
export const serveMcpOverStdio = lazy(async () => (await import('./mcp.js')).serveMcpOverStdio);
