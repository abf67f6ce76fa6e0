// IANA time zones as this runtime's ICU knows them (Intl.supportedValuesOf('timeZone'), the
// canonical names) plus 'UTC', each with its UTC offset at a given instant: offsets move with
// daylight saving time, so they are computed per request, never frozen in data.
export type TimeZoneEntry = {
  /** The IANA name, e.g. 'Europe/Berlin': what report filters send as timeZoneIanaId. */
  readonly IanaId: string;
  /** '(UTC+01:00) Europe/Berlin, Central European Time' */
  readonly DisplayName: string;
  /** Minutes east of UTC at the instant asked for (Berlin: 60 in winter, 120 in summer). */
  readonly UtcOffsetMinutes: number;
  /** The same as '+01:00' / '-03:30' / '+00:00'. */
  readonly UtcOffset: string;
};

type ZoneFormatters = { offset: Intl.DateTimeFormat; name: Intl.DateTimeFormat };

const formatters = new Map<string, ZoneFormatters>();

function formattersFor(zone: string): ZoneFormatters {
  let found = formatters.get(zone);
  if (!found) {
    found = {
      offset: new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }),
      name: new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longGeneric' }),
    };
    formatters.set(zone, found);
  }
  return found;
}

function zonePart(format: Intl.DateTimeFormat, at: Date): string {
  return format.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

/** 'GMT+05:30' → 330, 'GMT-03' → -180, 'GMT' → 0. */
export function parseGmtOffset(text: string): number {
  const match = /^(?:GMT|UTC)(?:([+-−])(\d{1,2})(?::?(\d{2}))?)?$/.exec(text);
  if (!match) throw new Error(`Unexpected UTC offset text '${text}'`);
  if (!match[1]) return 0;
  const sign = match[1] === '+' ? 1 : -1;
  return sign * (Number(match[2]) * 60 + Number(match[3] ?? 0));
}

export function formatUtcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

// ICU canonicalises to CLDR's older spellings; clients and the IANA database use the current
// names (both spellings are accepted by Intl, so the current one is what we publish).
const CURRENT_IANA_NAME: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Louisville': 'America/Kentucky/Louisville',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

let ids: string[] | undefined;

export function timeZoneIds(): string[] {
  if (!ids) {
    const current = Intl.supportedValuesOf('timeZone').map((zone) => CURRENT_IANA_NAME[zone] ?? zone);
    ids = [...new Set(current.includes('UTC') ? current : ['UTC', ...current])];
  }
  return ids;
}

export function timeZoneAt(zone: string, at: Date): TimeZoneEntry {
  const { offset, name } = formattersFor(zone);
  const minutes = parseGmtOffset(zonePart(offset, at));
  const utcOffset = formatUtcOffset(minutes);
  const generic = zonePart(name, at);
  // Zones without an English name come back as 'GMT+03:00': the offset already says that.
  const label = zone === 'UTC' ? 'Coordinated Universal Time' : /^GMT/.test(generic) ? '' : generic;
  const place = zone.replace(/_/g, ' ');
  return {
    IanaId: zone,
    DisplayName: `(UTC${utcOffset}) ${place}${label ? `, ${label}` : ''}`,
    UtcOffsetMinutes: minutes,
    UtcOffset: utcOffset,
  };
}

/** Every zone at the instant `at`, west to east, then by name. */
export function timeZonesAt(at: Date): TimeZoneEntry[] {
  return timeZoneIds()
    .map((zone) => timeZoneAt(zone, at))
    .sort((a, b) => a.UtcOffsetMinutes - b.UtcOffsetMinutes || a.IanaId.localeCompare(b.IanaId));
}
