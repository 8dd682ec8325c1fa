// The use-case layer's public face for entry points (cli/, server/). Heavy modules load when a use case runs.
export type { Desk, DeskReply, DeskSession } from './desk.js';
