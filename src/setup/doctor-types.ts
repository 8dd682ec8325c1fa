// The shape of `digest doctor`'s answer: one check a line, each problem with its fix.

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface DoctorCheck {
  /** What is checked: "config", "data", "source", "model", "embeddings", "smtp", "dkim", "publish", "secret". */
  area: string;
  /** Which one (a source id, a model id, a host), or the area again. */
  name: string;
  status: CheckStatus;
  /** What was found, in a few words (with the figures measured). */
  detail: string;
  /** What to do about it, for warnings and failures. */
  fix?: string;
}

export const check = ({
  area,
  name,
  status,
  detail,
  fix,
}: {
  area: string;
  name: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
}): DoctorCheck => ({ area, name, status, detail, ...(fix ? { fix } : {}) });
