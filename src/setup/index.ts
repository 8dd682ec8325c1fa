// setup/ — getting a digest running: `digest init` (config, .env, first checks) and `digest doctor` (every part
// checked with its fix).
import { lazyModule } from '../core/lazy.js';

export type { DoctorCheck, DoctorReport } from './doctor.js';
export type { InitAnswers } from './init.js';
export { defaultSender } from './sender.js';

export const { doctor } = lazyModule(() => import('./doctor.js'));

export const { initProject } = lazyModule(() => import('./init.js'));
