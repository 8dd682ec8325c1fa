// A small Prometheus registry: counters, gauges (set or collected on scrape) and histograms, text format 0.0.4.

type Labels = Record<string, string>;

export interface Counter {
  inc(labels?: Labels, value?: number): void;
}
export interface Gauge {
  set(labels: Labels, value: number): void;
}
export interface Histogram {
  observe(labels: Labels, value: number): void;
}
export type GaugeCollector = () => Promise<{ labels: Labels; value: number }[]>;

export interface MetricsRegistry {
  counter(name: string, help: string, labelNames?: string[]): Counter;
  gauge(name: string, help: string, labelNames?: string[]): Gauge;
  /** A gauge read when /metrics is scraped (e.g. subscribers by status from the database). */
  collectedGauge(family: { name: string; help: string; labelNames: string[]; collect: GaugeCollector }): void;
  histogram(family: { name: string; help: string; labelNames: string[]; buckets: number[] }): Histogram;
  render(): Promise<string>;
}

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

interface Family {
  type: 'counter' | 'gauge' | 'histogram';
  help: string;
  labelNames: string[];
  render(): Promise<string[]>;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Labels, extra?: [string, string]): string {
  const pairs = Object.entries(labels);
  if (extra) pairs.push(extra);
  return pairs.length ? `{${pairs.map(([key, value]) => `${key}="${escapeLabel(value)}"`).join(',')}}` : '';
}

function formatNumber(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return Number.isNaN(value) ? 'NaN' : String(value);
}

type Register = (name: string, family: Family) => void;

// Label sets are keyed in the declared label order, so {a,b} and {b,a} are one series.
function keyed(labelNames: string[], labels: Labels = {}): [string, Labels] {
  const ordered: Labels = {};
  for (const label of labelNames) ordered[label] = labels[label] ?? '';
  return [JSON.stringify(ordered), ordered];
}

/** A counter's or gauge's series by label set; returns the update of one series. */
function seriesFamily(
  register: Register,
  family: { name: string; type: 'counter' | 'gauge'; help: string; labelNames: string[] },
) {
  const { name, labelNames } = family;
  const series = new Map<string, { labels: Labels; value: number }>();
  register(name, {
    ...family,
    render: async () =>
      [...series.values()].map((s) => `${name}${labelText(s.labels)} ${formatNumber(s.value)}`),
  });
  return (labels: Labels | undefined, update: (value: number) => number) => {
    const [key, ordered] = keyed(labelNames, labels);
    const entry = series.get(key) ?? { labels: ordered, value: 0 };
    entry.value = update(entry.value);
    series.set(key, entry);
  };
}

function histogramFamily(
  register: Register,
  family: { name: string; help: string; labelNames: string[]; buckets: number[] },
): Histogram {
  const { name, labelNames } = family;
  const bounds = [...family.buckets].sort((a, b) => a - b);
  const series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  register(name, {
    type: 'histogram',
    help: family.help,
    labelNames,
    async render() {
      const lines: string[] = [];
      for (const s of series.values()) {
        let cumulative = 0;
        bounds.forEach((bound, index) => {
          cumulative += s.counts[index]!;
          lines.push(`${name}_bucket${labelText(s.labels, ['le', formatNumber(bound)])} ${cumulative}`);
        });
        lines.push(`${name}_bucket${labelText(s.labels, ['le', '+Inf'])} ${s.count}`);
        lines.push(`${name}_sum${labelText(s.labels)} ${formatNumber(s.sum)}`);
        lines.push(`${name}_count${labelText(s.labels)} ${s.count}`);
      }
      return lines;
    },
  });
  return {
    observe(labels, value) {
      const [key, ordered] = keyed(labelNames, labels);
      let entry = series.get(key);
      if (!entry) {
        entry = { labels: ordered, counts: bounds.map(() => 0), sum: 0, count: 0 };
        series.set(key, entry);
      }
      const index = bounds.findIndex((bound) => value <= bound);
      if (index >= 0) entry.counts[index]! += 1;
      entry.sum += value;
      entry.count += 1;
    },
  };
}

export function createMetricsRegistry(): MetricsRegistry {
  const families = new Map<string, Family>();

  function register(name: string, family: Family): void {
    if (!NAME.test(name)) throw new Error(`invalid metric name "${name}"`);
    for (const label of family.labelNames) {
      if (!LABEL.test(label) || label === 'le') throw new Error(`invalid label "${label}" on ${name}`);
    }
    if (families.has(name)) throw new Error(`metric "${name}" is registered twice`);
    families.set(name, family);
  }

  return {
    counter(name, help, labelNames = []) {
      const update = seriesFamily(register, { name, type: 'counter', help, labelNames });
      // A counter with no labels shows 0 before its first event, so rate() works from the start.
      if (!labelNames.length) update(undefined, (value) => value);
      return {
        inc(labels, value = 1) {
          if (!(value >= 0)) throw new Error(`counter ${name} can only go up`);
          update(labels, (current) => current + value);
        },
      };
    },
    gauge(name, help, labelNames = []) {
      const update = seriesFamily(register, { name, type: 'gauge', help, labelNames });
      return { set: (labels, value) => update(labels, () => value) };
    },
    collectedGauge({ name, help, labelNames, collect }) {
      register(name, {
        type: 'gauge',
        help,
        labelNames,
        async render() {
          const rows = await collect();
          return rows.map(
            (row) => `${name}${labelText(keyed(labelNames, row.labels)[1])} ${formatNumber(row.value)}`,
          );
        },
      });
    },
    histogram: (family) => histogramFamily(register, family),
    async render() {
      const blocks: string[] = [];
      for (const [name, family] of families) {
        const help = family.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
        blocks.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${family.type}`, ...(await family.render()));
      }
      return `${blocks.join('\n')}\n`;
    },
  };
}

/** The digest's own metrics. The use cases (build, send) get these handles; the server renders them. */
export interface DigestMetrics {
  registry: MetricsRegistry;
  editionsBuilt: Counter;
  mailsSent: Counter;
  mailsFailed: Counter;
  mailsBounced: Counter;
  httpRequests: Counter;
  httpDuration: Histogram;
}

export const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface DigestMetricsOptions {
  /** Subscribers per status (pending, confirmed, unsubscribed, bounced), read from the store on each scrape. */
  subscribersByStatus?: () => Promise<Record<string, number>>;
  /** Mails of every send by send-log state (sent, failed, uncertain, skipped…), read on each scrape. */
  sendLog?: () => Promise<Record<string, number>>;
  /** The outbox's waiting mails (confirmations, welcomes) and how many of them wait for a retry. */
  outbox?: () => Promise<{ waiting: number; retrying: number }>;
  /** Counted links over every edition, read from the database: readers' clicks and link scanners' prefetches. */
  linkClicks?: () => Promise<{ clicks: number; prefetched: number }>;
  /** Readers whose complaint (a spam report through their provider) is on record, read from the database. */
  complaints?: () => Promise<number>;
  /** When the last scheduled backup succeeded (seconds since 1970; null before the first), from the database. */
  lastBackup?: () => Promise<number | null>;
}

export function createDigestMetrics(options: DigestMetricsOptions = {}): DigestMetrics {
  const registry = createMetricsRegistry();
  const metrics: DigestMetrics = {
    registry,
    editionsBuilt: registry.counter('digest_editions_built_total', 'Editions built by this process.'),
    mailsSent: registry.counter('digest_mails_sent_total', 'Mails accepted by the SMTP server.'),
    mailsFailed: registry.counter('digest_mails_failed_total', 'Mails that failed to send.'),
    mailsBounced: registry.counter('digest_mails_bounced_total', 'Mails reported bounced.'),
    httpRequests: registry.counter(
      'digest_http_requests_total',
      'HTTP requests by route, method and status.',
      ['route', 'method', 'status'],
    ),
    httpDuration: registry.histogram({
      name: 'digest_http_request_duration_seconds',
      help: 'HTTP request latency by route.',
      labelNames: ['route'],
      buckets: HTTP_DURATION_BUCKETS,
    }),
  };
  const { subscribersByStatus, sendLog, outbox, linkClicks, complaints, lastBackup } = options;
  if (lastBackup) backupGauge(registry, lastBackup);
  if (complaints) complaintsGauge(registry, complaints);
  if (linkClicks) {
    // From the database, so every `digest serve` counting into it reports the same totals.
    registry.collectedGauge({
      name: 'digest_link_clicks',
      help: 'Counted link follows over every edition: clicks by readers, prefetched by link scanners (apart).',
      labelNames: ['kind'],
      collect: async () => {
        const { clicks, prefetched } = await linkClicks();
        return [
          { labels: { kind: 'click' }, value: clicks },
          { labels: { kind: 'prefetched' }, value: prefetched },
        ];
      },
    });
  }
  if (outbox) {
    registry.collectedGauge({
      name: 'digest_outbox_mails',
      help: 'Confirmation and welcome mails waiting in the outbox (retrying: failed at least once).',
      labelNames: ['state'],
      collect: async () => {
        const { waiting, retrying } = await outbox();
        return [
          { labels: { state: 'waiting' }, value: waiting },
          { labels: { state: 'retrying' }, value: retrying },
        ];
      },
    });
  }
  if (sendLog) {
    // Every mail of every send, from the send log: the same numbers whichever process sent them.
    registry.collectedGauge({
      name: 'digest_send_log_mails',
      help: 'Mails in the send log by state.',
      labelNames: ['state'],
      collect: async () =>
        Object.entries(await sendLog()).map(([state, value]) => ({ labels: { state }, value })),
    });
  }
  if (subscribersByStatus) {
    registry.collectedGauge({
      name: 'digest_subscribers',
      help: 'Subscribers by status.',
      labelNames: ['status'],
      collect: async () =>
        Object.entries(await subscribersByStatus()).map(([status, value]) => ({ labels: { status }, value })),
    });
  }
  return metrics;
}

function backupGauge(registry: MetricsRegistry, lastBackup: () => Promise<number | null>): void {
  // 0 until the first: an alert on its age fires when backups never started, too.
  registry.collectedGauge({
    name: 'digest_backup_last_success_timestamp',
    help: 'When the last scheduled backup succeeded, in seconds since 1970 (0: none yet).',
    labelNames: [],
    collect: async () => [{ labels: {}, value: (await lastBackup()) ?? 0 }],
  });
}

function complaintsGauge(registry: MetricsRegistry, complaints: () => Promise<number>): void {
  // Apart from digest_subscribers{status="unsubscribed"}, where a reader who complained is too (they left).
  registry.collectedGauge({
    name: 'digest_reader_complaints',
    help: 'Readers whose complaint (a spam report through their mail provider) is on record, counted apart from unsubscribes.',
    labelNames: [],
    collect: async () => [{ labels: {}, value: await complaints() }],
  });
}
