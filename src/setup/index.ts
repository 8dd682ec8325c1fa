// setup/ — getting a digest running: `digest init` (config, .env, first checks) and `digest doctor` (every part
// checked with its fix).
import { lazy } from '../core/lazy.js';

export type { DoctorCheck, DoctorReport } from './doctor.js';
export type { InitAnswers } from './init.js';
export { defaultSender } from './sender.js';

export const doctor = lazy(async () => (await import('./doctor.js')).doctor);

export const initProject = lazy(async () => (await import('./init.js')).initProject);
