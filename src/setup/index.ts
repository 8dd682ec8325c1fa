// setup/ — getting a digest running: `digest init` (config, .env, first checks) and `digest doctor` (every part
// checked with its fix). This file is the room's one face; each use case loads its module when called.
import type { DoctorInput, DoctorReport } from './doctor.js';

export type { DoctorCheck, DoctorInput, DoctorReport } from './doctor.js';
export type { InitAnswers } from './init.js';

export async function doctor(input: DoctorInput): Promise<DoctorReport> {
  return (await import('./doctor.js')).doctor(input);
}

export async function initProject(input: Parameters<typeof import('./init.js').initProject>[0]) {
  return (await import('./init.js')).initProject(input);
}
