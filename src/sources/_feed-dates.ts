// Feed dates as they occur in the wild: RFC 822 with two-digit years, zone names or none, non-English day and
// month names, ISO 8601 without a zone, "2020/1/10 14:33:00". A date without a zone is read as UTC.

const MONTHS: Record<string, number> = {};
const MONTH_NAMES = [
  // en, fr, de, es/pt/it/nl variants, el (accents stripped)
  [
    'jan',
    'janv',
    'janvier',
    'januar',
    'ene',
    'enero',
    'janeiro',
    'gen',
    'gennaio',
    'januari',
    'ιαν',
    'ιανουαριου',
  ],
  [
    'feb',
    'fev',
    'fevr',
    'fevrier',
    'februar',
    'febrero',
    'fevereiro',
    'febbraio',
    'februari',
    'φεβ',
    'φεβρουαριου',
  ],
  ['mar', 'mars', 'marz', 'maerz', 'marzo', 'marco', 'maart', 'mrt', 'μαρ', 'μαρτιου'],
  ['apr', 'avr', 'avril', 'april', 'abr', 'abril', 'aprile', 'απρ', 'απριλιου'],
  ['may', 'mai', 'mayo', 'maio', 'mag', 'maggio', 'mei', 'μαι', 'μαιου'],
  ['jun', 'juin', 'juni', 'junio', 'junho', 'giu', 'giugno', 'ιουν', 'ιουνιου'],
  ['jul', 'juil', 'juillet', 'juli', 'julio', 'julho', 'lug', 'luglio', 'ιουλ', 'ιουλιου'],
  ['aug', 'aout', 'august', 'ago', 'agosto', 'augustus', 'αυγ', 'αυγουστου'],
  [
    'sep',
    'sept',
    'septembre',
    'september',
    'set',
    'septiembre',
    'setembro',
    'settembre',
    'σεπ',
    'σεπτεμβριου',
  ],
  ['oct', 'octobre', 'okt', 'oktober', 'octubre', 'out', 'outubro', 'ott', 'ottobre', 'οκτ', 'οκτωβριου'],
  ['nov', 'novembre', 'november', 'noviembre', 'novembro', 'νοε', 'νοεμβριου'],
  [
    'dec',
    'decembre',
    'dez',
    'dezember',
    'dic',
    'diciembre',
    'dezembro',
    'dicembre',
    'december',
    'δεκ',
    'δεκεμβριου',
  ],
];
MONTH_NAMES.forEach((names, index) => {
  for (const name of names) MONTHS[name] = index + 1;
});

const ZONES: Record<string, number> = {
  ut: 0,
  utc: 0,
  gmt: 0,
  z: 0,
  wet: 0,
  bst: 60,
  cet: 60,
  cest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  ist: 330,
  jst: 540,
  kst: 540,
  aest: 600,
  edt: -240,
  est: -300,
  cdt: -300,
  cst: -360,
  mdt: -360,
  mst: -420,
  pdt: -420,
  pst: -480,
  akst: -540,
  hst: -600,
};

/** ISO 8601 UTC string for a feed date, or null when it cannot be read with confidence. */
export function parseFeedDate(raw: string | null | undefined): string | null {
  const value = raw?.trim();
  if (!value) return null;
  const date = parseIso(value) ?? parseNumeric(value) ?? parseRfc822(value) ?? parseLoose(value);
  return date ? date.toISOString() : null;
}

function plausible(time: number): Date | null {
  if (Number.isNaN(time)) return null;
  const year = new Date(time).getUTCFullYear();
  return year >= 1970 && year <= 2100 ? new Date(time) : null;
}

function parseIso(value: string): Date | null {
  const match =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T\s](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(
      value,
    );
  if (!match) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone = 'Z'] = match;
  const normalisedZone = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  return plausible(Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}${normalisedZone}`));
}

function parseNumeric(value: string): Date | null {
  const match = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
  return plausible(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
}

function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

function parseRfc822(value: string): Date | null {
  // Drop a leading weekday in any language ("Mon,", "Seg,", "Τρι,"), then read "d mon yy[yy] [time] [zone]".
  const body = fold(value)
    .replace(/^[^\d,]*,\s*/, '')
    .replace(/^[^\d\s]+\s+(?=\d)/, '');
  const match =
    /^(\d{1,2})[\s-]+([^\s\d.-]+)\.?[\s-]+(\d{2,4})(?:[\s,]+(\d{1,2}):?(\d{2})(?::(\d{2}))?)?\s*(.*)$/u.exec(
      body,
    );
  if (!match) return null;
  const [, d, monthName = '', y = '', h = '0', mi = '0', s = '0', zoneText = ''] = match;
  const month = MONTHS[monthName] ?? MONTHS[monthName.slice(0, 3)];
  if (!month) return null;
  let year = Number(y);
  if (y.length === 2) year += year < 50 ? 2000 : 1900;
  const offset = zoneOffset(zoneText.trim());
  const time = Date.UTC(year, month - 1, Number(d), Number(h), Number(mi), Number(s)) - offset * 60_000;
  return plausible(time);
}

function zoneOffset(zone: string): number {
  const numeric = /^(?:gmt|utc)?\s*([+-])(\d{2}):?(\d{2})/.exec(zone);
  if (numeric) {
    const minutes = Number(numeric[2]) * 60 + Number(numeric[3]);
    return numeric[1] === '-' ? -minutes : minutes;
  }
  return ZONES[zone.replace(/[^a-z]/g, '')] ?? 0;
}

function parseLoose(value: string): Date | null {
  return plausible(Date.parse(value));
}
