// The use-case layer's public face for entry points (cli/, server/). Heavy modules load when a use case runs.
export type { BuildInput, BuildOutcome } from './build.js';
export { createDigest, type Digest } from './create-digest.js';
export type { AddInput, DecideInput } from './decide.js';
export type { ChatInput, ChatOutcome, PushInput, PushOutcome } from './deliver.js';
export { type Clock, type DigestDeps, systemClock } from './deps.js';
export type { Desk, DeskOptions, DeskReply, DeskSession } from './desk.js';
export { MIN_PASSWORD_LENGTH } from './desk-passwords.js';
export { type EditionFlag, editionFlags, FlaggedEditionError } from './edition-flags.js';
export { checkWritableFolder, resolveDataDir, resolveWeek } from './inputs.js';
export type { ListInput, ListResult } from './list.js';
export { type OpenDigest, type OpenDigestOptions, openDigest, withDigest } from './open-digest.js';
export type { EmailInput, EmailOutcome, PublishInput, PublishOutcome } from './publish.js';
export type { SendInput, SendOutcome, SendProgress } from './send.js';
export { type ImportReport, type PutResult, SUBSCRIBER_STATUSES } from './subscribers.js';
