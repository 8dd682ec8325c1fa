// Connects to the configured SMTP server the way a send does (nodemailer's SMTPConnection: EHLO, STARTTLS, AUTH)
// and sends no mail: `digest doctor` reports each step, and which one failed.
import { type SmtpServer, smtpConnection } from './smtp-pool.js';

export type SmtpStep = 'connect' | 'starttls' | 'auth';

export interface SmtpProbe {
  ok: boolean;
  /** The step that failed (when not ok). */
  failedStep?: SmtpStep;
  message: string;
  /** The connection was encrypted (TLS from the start, or after STARTTLS). */
  encrypted: boolean;
  /** A login was made and accepted. */
  authenticated: boolean;
  latencyMs: number;
}

function stepOf(error: { code?: string | undefined; command?: string | undefined }): SmtpStep {
  if (error.code === 'EAUTH') return 'auth';
  if (error.code === 'ETLS' || /STARTTLS/i.test(error.command ?? '')) return 'starttls';
  return 'connect';
}

export function probeSmtp(settings: SmtpServer): Promise<SmtpProbe> {
  const started = performance.now();
  const connection = smtpConnection(settings);
  return new Promise<SmtpProbe>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SmtpProbe, 'latencyMs' | 'encrypted'>) => {
      if (settled) return;
      settled = true;
      const encrypted = connection.secure;
      connection.close();
      resolve({ ...outcome, encrypted, latencyMs: performance.now() - started });
    };
    const fail = (error: Error & { code?: string | undefined; command?: string | undefined }) =>
      finish({ ok: false, failedStep: stepOf(error), message: error.message, authenticated: false });
    connection.on('error', fail);
    connection.connect((error) => {
      if (error) return fail(error);
      if (!settings.user) return finish({ ok: true, message: 'connected', authenticated: false });
      if (!connection.allowsAuth) {
        return finish({
          ok: false,
          failedStep: 'auth',
          message: 'the server offers no AUTH, but publish.email.smtp.user is set',
          authenticated: false,
        });
      }
      connection.login({ user: settings.user, pass: settings.password ?? '' }, (loginError) => {
        if (loginError) return fail(loginError);
        finish({ ok: true, message: 'connected and logged in', authenticated: true });
      });
    });
  });
}
