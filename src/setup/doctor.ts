// `digest doctor`: checks a set-up in well under a minute and says how to fix each problem. Config first (nothing
// else can be checked without it), then the data folder, the sources, the models, mail and publishing settings, all
// at the same time, each with a short deadline. A use case of its own (it needs no store): `digest init` calls it.

import type { Config } from '../config/config-schema.js';
import { CONFIG_OVERRIDE_ENV, ignoredConfigNotice, loadConfig } from '../config/load-config.js';
import { errorMessage } from '../core/errors.js';
import { checkMail } from './doctor-mail.js';
import { type BuildEstimate, checkModels } from './doctor-model.js';
import { checkDataFolder, checkPublishing, checkSources } from './doctor-setup.js';
import { check, type DoctorCheck } from './doctor-types.js';

export type { BuildEstimate } from './doctor-model.js';
export type { DoctorCheck } from './doctor-types.js';

export interface DoctorInput {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Today, for sources whose URL holds "{date}". */
  now: Date;
  configFile?: string;
  dataDir?: string;
  /** A config already made (skips loading a file). */
  config?: Config;
  deadlines?: DoctorDeadlines;
}

/** How long each check may take, in ms. */
export interface DoctorDeadlines {
  /** Each source fetch (default 5 s). */
  source?: number;
  /** The model's test call (default 30 s). */
  model?: number;
  /** SMTP connection and greeting (default 10 s). */
  smtp?: number;
}

export interface DoctorReport {
  /** The config file read (null: built-in defaults, or it could not be read). */
  configFile: string | null;
  checks: DoctorCheck[];
  /** The failed checks: the set-up is ready when there are none. */
  problems: DoctorCheck[];
  /** Rough wall time and cost of this week's build with the writing model. */
  estimate?: BuildEstimate;
  /** DNS records the sending domain should publish. */
  dnsRecords: string[];
}

async function configFor(
  input: DoctorInput,
): Promise<{ config?: Config; file: string | null; check: DoctorCheck }> {
  if (input.config)
    return {
      config: input.config,
      file: null,
      check: check({ area: 'config', name: 'config', status: 'ok', detail: 'given' }),
    };
  try {
    // The one loader every command uses: the file, then DIGEST_CONFIG_JSON over it.
    const loaded = await loadConfig({
      cwd: input.cwd,
      env: input.env,
      ...(input.configFile ? { file: input.configFile } : {}),
    });
    const where = loaded.file ?? 'no config file: built-in defaults';
    const layered = input.env[CONFIG_OVERRIDE_ENV] ? ` with ${CONFIG_OVERRIDE_ENV} over it` : '';
    const twoFiles = ignoredConfigNotice(loaded);
    return {
      config: loaded.config,
      file: loaded.file,
      check: twoFiles
        ? check({
            area: 'config',
            name: 'config',
            status: 'warn',
            detail: `${where}${layered} is valid; ${twoFiles}`,
            fix: 'keep one config file',
          })
        : check({ area: 'config', name: 'config', status: 'ok', detail: `${where}${layered} is valid` }),
    };
  } catch (error) {
    const [first, ...rest] = errorMessage(error).split('\n');
    const fields = rest.filter((line) => line.startsWith('  - ')).map((line) => line.slice(4));
    const detail = fields.length ? `${first} ${fields.join('; ')}` : (first ?? '');
    return {
      file: null,
      check: check({
        area: 'config',
        name: 'config',
        status: 'fail',
        detail,
        fix: 'fix the field(s) named, then run ./digest doctor again',
      }),
    };
  }
}

export async function doctor(input: DoctorInput): Promise<DoctorReport> {
  const loaded = await configFor(input);
  const { config } = loaded;
  if (!config) {
    return { configFile: null, checks: [loaded.check], problems: [loaded.check], dnsRecords: [] };
  }
  const [data, sources, models, mail] = await Promise.all([
    checkDataFolder(input),
    checkSources(config, { now: input.now, deadlineMs: input.deadlines?.source ?? 5_000 }),
    checkModels(config, { env: input.env, timeoutMs: input.deadlines?.model ?? 30_000 }),
    checkMail(config, input.env, input.deadlines?.smtp ?? 10_000),
  ]);
  const checks = [
    loaded.check,
    data,
    ...sources,
    ...models.checks,
    ...mail.checks,
    ...checkPublishing(config, input.env),
  ];
  return {
    configFile: loaded.file,
    checks,
    problems: checks.filter((entry) => entry.status === 'fail'),
    ...(models.estimate ? { estimate: models.estimate } : {}),
    dnsRecords: mail.dnsRecords,
  };
}
