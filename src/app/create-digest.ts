// The composition root's use cases: every entry point (CLI, server, jobs) calls these and nothing below them.
import { type BuildInput, build } from './build.js';
import { type AddInput, add, type DecideInput, decide } from './decide.js';
import type { DigestDeps } from './deps.js';
import { type ListInput, list } from './list.js';
import { type EmailInput, email, type PublishInput, publish } from './publish.js';

export function createDigest(deps: DigestDeps) {
  return {
    deps,
    build: (input: BuildInput) => build(deps, input),
    list: (input: ListInput) => list(deps, input),
    decide: (input: DecideInput) => decide(deps, input),
    add: (input: AddInput) => add(deps, input),
    publish: (input: PublishInput) => publish(deps, input),
    email: (input: EmailInput) => email(deps, input),
  };
}

export type Digest = ReturnType<typeof createDigest>;
