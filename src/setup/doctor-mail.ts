// `digest doctor`'s mail checks: the SMTP server as a send meets it (connect and EHLO, STARTTLS, AUTH), the DKIM
// key, and the DNS records the sending domain should publish (SPF, DKIM, DMARC), printed ready to paste.
import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { Config } from '../config/config-schema.js';
import type { SmtpConfig } from '../config/publish-schema.js';
import { isReservedMailDomain, LOOPBACK_HOSTS } from '../core/email-address.js';
import { errorMessage } from '../core/errors.js';
import { smtpServer } from '../mail/settings.js';
import { probeSmtp, type SmtpStep } from '../mail/smtp-probe.js';
import { check, type DoctorCheck } from './doctor-types.js';

export interface MailChecks {
  checks: DoctorCheck[];
  /** DNS records to publish, one line each ("name TXT value"). */
  dnsRecords: string[];
}

/** The domain of the From address ("Digest <news@example.org>" → example.org). */
function fromDomain(from: string): string | null {
  const address = /<([^>]+)>\s*$/.exec(from)?.[1] ?? from;
  const domain = address.split('@')[1]?.trim().toLowerCase();
  return domain && /^[a-z0-9.-]+\.[a-z]{2,}$/.test(domain) ? domain : null;
}

/**
 * The sender rule: a real SMTP server needs a sender on your own domain (receivers check SPF, DKIM, DMARC there); a
 * mail catcher on this machine takes any, "digest@digest.localhost" (what `digest init` writes for a local base URL) too.
 */
function senderCheck(config: Config): DoctorCheck | null {
  const smtp = config.publish.email.smtp;
  if (!smtp) return null;
  const from = config.publish.email.from;
  const domain = /<([^>]+)>\s*$/.exec(from)?.[1]?.split('@')[1] ?? from.split('@')[1] ?? '';
  if (LOOPBACK_HOSTS.has(smtp.host))
    return check({
      area: 'smtp',
      name: 'from',
      status: 'ok',
      detail: `${from} (fine for a mail catcher on this machine)`,
    });
  if (fromDomain(from) && !isReservedMailDomain(domain))
    return check({ area: 'smtp', name: 'from', status: 'ok', detail: from });
  return check({
    area: 'smtp',
    name: 'from',
    status: 'fail',
    detail: `publish.email.from is "${from}": mail needs a sender on your own domain`,
    fix: 'set publish.email.from to "Name <address@your-domain>"',
  });
}

/**
 * A setup that mails readers should say who sends: CAN-SPAM asks for a valid postal address in every commercial mail,
 * and many lists expect one under GDPR. Only a warning: a private list may not need it.
 */
function postalAddressCheck(config: Config): DoctorCheck | null {
  if (!config.publish.email.smtp) return null;
  const postal = config.publish.identity.postalAddress;
  if (postal)
    return check({ area: 'identity', name: 'postalAddress', status: 'ok', detail: postal.split('\n')[0]! });
  return check({
    area: 'identity',
    name: 'postalAddress',
    status: 'warn',
    detail: 'mail is set up but publish.identity.postalAddress is not: your mails carry no postal address',
    fix: 'set publish.identity.postalAddress (CAN-SPAM requires one in every commercial mail); every mail and the subscribe page print it',
  });
}

function smtpFix(step: SmtpStep, smtp: SmtpConfig): string {
  if (step === 'connect') {
    return `nothing answers SMTP at ${smtp.host}:${smtp.port}: check publish.email.smtp.host and .port (587 STARTTLS, 465 TLS) and the firewall`;
  }
  if (step === 'starttls') {
    return 'the server offers no working STARTTLS: use port 465 with "secure": true, or (a local relay only) "requireTls": false';
  }
  return `the server refused the login of ${smtp.user ?? '(no user)'}: check publish.email.smtp.user and ${smtp.passwordEnv}`;
}

async function checkSmtp(config: Config, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<DoctorCheck> {
  const smtp = config.publish.email.smtp;
  if (!smtp) {
    return check({
      area: 'smtp',
      name: 'smtp',
      status: 'skip',
      detail: 'publish.email.smtp is not set: `digest send` cannot mail subscribers',
    });
  }
  const name = `${smtp.host}:${smtp.port}`;
  if (smtp.user && !env[smtp.passwordEnv]) {
    return check({
      area: 'smtp',
      name,
      status: 'fail',
      detail: `${smtp.passwordEnv} is not set`,
      fix: `set ${smtp.passwordEnv} to the SMTP password`,
    });
  }
  // The server as every mail reaches it (mail/settings.ts), within the doctor's own short deadline.
  const probe = await probeSmtp({ ...smtpServer(config, env)!, timeoutMs });
  if (!probe.ok) {
    const step = probe.failedStep ?? 'connect';
    return check({
      area: 'smtp',
      name,
      status: 'fail',
      detail: `${step === 'connect' ? 'unreachable' : `${step} failed`}: ${probe.message}`,
      fix: smtpFix(step, smtp),
    });
  }
  const parts = [
    'EHLO accepted',
    probe.encrypted ? (smtp.secure ? 'TLS' : 'STARTTLS') : 'not encrypted',
    probe.authenticated ? 'AUTH accepted' : 'no login',
    `${Math.round(probe.latencyMs)} ms`,
  ];
  if (!probe.encrypted) {
    return check({
      area: 'smtp',
      name,
      status: 'warn',
      detail: parts.join(', '),
      fix: 'mail and password travel in clear: fine for a local relay, otherwise turn requireTls on',
    });
  }
  return check({ area: 'smtp', name, status: 'ok', detail: parts.join(', ') });
}

function dkimRecord(config: Config, env: NodeJS.ProcessEnv): { check: DoctorCheck; record?: string } {
  const dkim = config.publish.email.dkim;
  if (!dkim) {
    return {
      check: check({
        area: 'dkim',
        name: 'dkim',
        status: config.publish.email.smtp ? 'warn' : 'skip',
        detail: 'publish.email.dkim is not set: mail goes out unsigned (large mailbox providers want DKIM)',
        fix: 'openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out dkim.pem; set publish.email.dkim and DIGEST_DKIM_PRIVATE_KEY',
      }),
    };
  }
  const pem = env[dkim.privateKeyEnv]?.replace(/\\n/g, '\n');
  const name = `${dkim.keySelector}._domainkey.${dkim.domainName}`;
  if (!pem) {
    return {
      check: check({
        area: 'dkim',
        name,
        status: 'fail',
        detail: `${dkim.privateKeyEnv} is not set`,
        fix: `put the PEM private key in ${dkim.privateKeyEnv}`,
      }),
    };
  }
  try {
    const key = createPrivateKey(pem);
    const publicKey = createPublicKey(key).export({ type: 'spki', format: 'der' }).toString('base64');
    const type = key.asymmetricKeyType === 'ed25519' ? 'ed25519' : 'rsa';
    const from = fromDomain(config.publish.email.from);
    const aligned = from === dkim.domainName || from?.endsWith(`.${dkim.domainName}`);
    return {
      check: aligned
        ? check({ area: 'dkim', name, status: 'ok', detail: `${type} key loaded from ${dkim.privateKeyEnv}` })
        : check({
            area: 'dkim',
            name,
            status: 'warn',
            detail: `signs for ${dkim.domainName} but mail is from ${from ?? '?'}: DMARC wants the two aligned`,
            fix: 'set publish.email.dkim.domainName to the domain of publish.email.from',
          }),
      record: `${name} TXT "v=DKIM1; k=${type}; p=${publicKey}"`,
    };
  } catch (error) {
    return {
      check: check({
        area: 'dkim',
        name,
        status: 'fail',
        detail: `${dkim.privateKeyEnv} is not a usable private key: ${errorMessage(error)}`,
        fix: `put the PEM private key (-----BEGIN PRIVATE KEY-----…) in ${dkim.privateKeyEnv}`,
      }),
    };
  }
}

export async function checkMail(
  config: Config,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<MailChecks> {
  const smtpCheck = await checkSmtp(config, env, timeoutMs);
  const dkim = dkimRecord(config, env);
  const dnsRecords: string[] = [];
  const domain = fromDomain(config.publish.email.from);
  const smtp = config.publish.email.smtp;
  if (smtp && domain) {
    dnsRecords.push(`${domain} TXT "v=spf1 a:${smtp.host} ~all"   (or your mail provider's include:…)`);
    if (dkim.record) dnsRecords.push(dkim.record);
    dnsRecords.push(`_dmarc.${domain} TXT "v=DMARC1; p=none; rua=mailto:dmarc@${domain}"`);
  }
  const sender = senderCheck(config);
  const postal = postalAddressCheck(config);
  const checks = [smtpCheck, dkim.check, ...(sender ? [sender] : []), ...(postal ? [postal] : [])];
  return { checks, dnsRecords };
}
