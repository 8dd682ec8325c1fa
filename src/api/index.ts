// api/ — the published archive for programs: the read-only JSON API (its input schemas and OpenAPI document) and the
// MCP server (HTTP and stdio).
import { lazyModule } from '../core/lazy.js';

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

// serveMcpOverStdio: `digest mcp`: the archive over stdio until stdin ends or the signal aborts.
export const { createMcpServer, serveMcpOverStdio } = lazyModule(() => import('./mcp.js'));
