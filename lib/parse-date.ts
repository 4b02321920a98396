/**
 * Feed dates as found in the wild: RFC 822/1123 (with odd zones, missing parts, full month names),
 * W3C-DTF and ISO 8601 (including compact and ordinal forms), asctime, and a few localised forms
 * feedparser recognises (Greek, Hungarian, Korean). Everything is returned as ISO 8601 in UTC.
 */

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
};

// Offsets in minutes east of UTC, from RFC 822 plus the abbreviations feeds actually use.
const ZONES: Record<string, number> = {
  ut: 0, utc: 0, gmt: 0, z: 0, "etc/gmt": 0, "etc/utc": 0, wet: 0,
  est: -300, edt: -240, cst: -360, cdt: -300, mst: -420, mdt: -360, pst: -480, pdt: -420,
  at: -240, et: -300, ct: -360, mt: -420, pt: -480,
  ast: -240, adt: -180, akst: -540, akdt: -480, hst: -600, nst: -210, ndt: -150,
  bst: 60, ist: 330, cet: 60, cest: 120, met: 60, mest: 120, eet: 120, eest: 180, west: 60,
  msk: 180, jst: 540, kst: 540, hkt: 480, sgt: 480, aest: 600, aedt: 660, acst: 570, awst: 480, nzst: 720, nzdt: 780,
  a: -60, m: -720, n: 60, y: 720,
};

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(2000, month, 0)).getUTCDate() + (month === 2 && !isLeap(year) ? -1 : 0);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

type Parts = { year: number; month: number; day: number; hour: number; minute: number; second: number; offset: number };

function build(p: Parts): string | null {
  if (p.month < 1 || p.month > 12 || p.day < 1 || p.day > daysInMonth(p.year, p.month)) return null;
  if (p.hour > 24 || p.minute > 59 || p.second > 60) return null;
  if (p.hour === 24 && (p.minute > 0 || p.second > 0)) return null;
  const date = new Date(Date.UTC(2000, p.month - 1, p.day, p.hour, p.minute, Math.min(p.second, 59)));
  date.setUTCFullYear(p.year, p.month - 1, p.day);
  const time = date.getTime() - p.offset * 60_000;
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

function twoDigitYear(year: string): number {
  const n = Number(year);
  if (year.length > 2) return n;
  // As feedparser and most mail readers do: 00-68 is 20xx, 69-99 is 19xx.
  return n < 69 ? 2000 + n : 1900 + n;
}

function parseOffset(zone: string | undefined): number | null {
  if (!zone) return 0;
  const z = zone.trim().toLowerCase();
  if (z === "") return 0;
  if (z in ZONES) return ZONES[z]!;
  const m = /^(?:gmt|utc|ut)?([+-])(\d{1,2}):?(\d{2})?$/.exec(z);
  if (!m) return null;
  const hours = Number(m[2]);
  const minutes = Number(m[3] ?? 0);
  if (hours > 23 || minutes > 59) return null;
  return (m[1] === "-" ? -1 : 1) * (hours * 60 + minutes);
}

function parseTime(time: string | undefined): { hour: number; minute: number; second: number } | null {
  if (!time) return { hour: 0, minute: 0, second: 0 };
  const m = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.\d+)?)?$/.exec(time);
  if (!m) return null;
  return { hour: Number(m[1]), minute: Number(m[2]), second: Number(m[3] ?? 0) };
}

function monthNumber(name: string): number | null {
  return MONTHS[name.slice(0, 3).toLowerCase()] ?? null;
}

const RFC822 =
  /^(?:[a-z]{2,9}\.?,?\s*)?(\d{1,2})\s+([a-z]{3,9})\.?,?\s+(\d{2,4})(?:,?\s+(\d{1,2}:\d{1,2}(?::\d{1,2})?(?:\.\d+)?))?(?:\s*([a-z/]+(?:[+-]\d{1,2}(?::?\d{2})?)?|[+-]\d{1,2}:?\d{2}))?$/i;

function parseRfc822(value: string): string | null {
  const m = RFC822.exec(value);
  if (!m) return null;
  const month = monthNumber(m[2]!);
  const time = parseTime(m[4]);
  const offset = parseOffset(m[5]);
  if (!month || !time || offset === null) return null;
  return build({ year: twoDigitYear(m[3]!), month, day: Number(m[1]), ...time, offset });
}

// "Thu Aug 30 2012 17:26:16 +0200", "Sun Jan  4 16:29:06 2004", "Sun Jul 15 01:16:00 +0000 2012"
const ASCTIME =
  /^(?:[a-z]{3},?\s+)?([a-z]{3,9})\s+(\d{1,2})\s+(?:(\d{4})\s+)?(\d{1,2}:\d{2}(?::\d{2})?)(?:\s+([a-z]+|[+-]\d{4}))?(?:\s+(\d{4}))?$/i;

function parseAsctime(value: string): string | null {
  const m = ASCTIME.exec(value);
  if (!m) return null;
  const year = m[3] ?? m[6];
  const month = monthNumber(m[1]!);
  const time = parseTime(m[4]);
  const offset = parseOffset(m[5]);
  if (!year || !month || !time || offset === null) return null;
  return build({ year: Number(year), month, day: Number(m[2]), ...time, offset });
}

// ISO 8601 and W3C-DTF: the date forms feedparser accepts, then an optional time and zone.
const ISO_DATE = [
  /^(?<year>\d{4})-?(?<month>\d{2})-?(?<day>\d{2})/,
  /^(?<year>\d{4})-0?(?<month>\d{2})-?(?<day>\d{2})/,
  /^(?<year>\d{4})-(?<month>\d{2})/,
  /^(?<year>\d{4})-?(?<ordinal>\d{3})/,
  /^(?<yy>\d{2})-?(?<month>\d{2})-?(?<day>\d{2})/,
  /^(?<yy>\d{2})-?(?<ordinal>\d{3})/,
  /^(?<year>\d{4})/,
  /^-(?<yy>\d{2})-?(?<month>\d{2})/,
];
const ISO_TIME = /^(?:[T ]\s*(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*(Z|[+-]\d{2}:?\d{2}|[+-]\d{2}|\s*[A-Za-z]{1,5})?)?$/;

function parseIso(value: string): string | null {
  for (const form of ISO_DATE) {
    const m = form.exec(value);
    if (!m?.groups) continue;
    const rest = value.slice(m[0].length);
    const t = ISO_TIME.exec(rest);
    if (!t) continue;
    const g = m.groups;
    const year = g.year ? Number(g.year) : twoDigitYear(g.yy!);
    let month = g.month ? Number(g.month) : 1;
    let day = g.day ? Number(g.day) : 1;
    if (g.ordinal) {
      const ordinal = Number(g.ordinal);
      if (ordinal < 1 || ordinal > (isLeap(year) ? 366 : 365)) return null;
      const d = new Date(Date.UTC(2000, 0, ordinal));
      d.setUTCFullYear(year, 0, ordinal);
      month = d.getUTCMonth() + 1;
      day = d.getUTCDate();
    }
    const offset = parseOffset(t[4]);
    if (offset === null) return null;
    return build({
      year, month, day,
      hour: t[1] ? Number(t[1]) : 0, minute: t[2] ? Number(t[2]) : 0, second: t[3] ? Number(t[3]) : 0,
      offset,
    });
  }
  return null;
}

const GREEK_MONTHS: Record<string, string> = {
  Ιαν: "Jan", Φεβ: "Feb", Μάώ: "Mar", Μαώ: "Mar", Μάρ: "Mar", Μαρ: "Mar", Απρ: "Apr", Μάι: "May", Μαϊ: "May", Μαι: "May",
  Ιούν: "Jun", Ιον: "Jun", Ιούλ: "Jul", Ιολ: "Jul", Αύγ: "Aug", Αυγ: "Aug", Σεπ: "Sep", Οκτ: "Oct", Νοέ: "Nov", Νοε: "Nov", Δεκ: "Dec",
};
const HUNGARIAN_MONTHS: Record<string, string> = {
  január: "01", február: "02", március: "03", április: "04", május: "05", június: "06",
  július: "07", augusztus: "08", szeptember: "09", október: "10", november: "11", december: "12",
};

function parseLocalised(value: string): string | null {
  // Greek: "Κυρ, 11 Ιούλ 2004 12:00:00 EST"
  const greek = /^[^\s,]+,\s+(\d{1,2})\s+(\S+)\s+(\d{4}\s+\d{1,2}:\d{2}:\d{2}\s+\S+)$/u.exec(value);
  if (greek && GREEK_MONTHS[greek[2]!]) return parseRfc822(`${greek[1]} ${GREEK_MONTHS[greek[2]!]} ${greek[3]}`);
  // Hungarian: "2004-július-13T9:15-05:00"
  const hu = /^(\d{4})-([a-zúőöüűéáí]+)-(\d{1,2})T(\d{1,2}):(\d{2})(.*)$/iu.exec(value);
  if (hu && HUNGARIAN_MONTHS[hu[2]!.toLowerCase()]) {
    return parseIso(`${hu[1]}-${HUNGARIAN_MONTHS[hu[2]!.toLowerCase()]}-${hu[3]!.padStart(2, "0")}T${hu[4]!.padStart(2, "0")}:${hu[5]}${hu[6]}`);
  }
  // Korean (Nate): "2004-05-25 오후 11:23:17", Korean Standard Time.
  const nate = /^(\d{4})-(\d{2})-(\d{2})\s+(오전|오후)\s+(\d{1,2}):(\d{2}):(\d{2})$/u.exec(value);
  if (nate) {
    let hour = Number(nate[5]) % 12;
    if (nate[4] === "오후") hour += 12;
    return build({ year: Number(nate[1]), month: Number(nate[2]), day: Number(nate[3]), hour, minute: Number(nate[6]), second: Number(nate[7]), offset: 540 });
  }
  // Korean (OnBlog): "2004년 05월 28일  01:31:15", Korean Standard Time.
  const onblog = /^(\d{4})년\s*(\d{1,2})월\s*(\d{1,2})일\s+(\d{1,2}):(\d{2}):(\d{2})$/u.exec(value);
  if (onblog) {
    return build({ year: Number(onblog[1]), month: Number(onblog[2]), day: Number(onblog[3]), hour: Number(onblog[4]), minute: Number(onblog[5]), second: Number(onblog[6]), offset: 540 });
  }
  // Perforce: "Fri, 2006/09/15 08:19:53 EDT"
  const p4 = /^(?:[a-z]{3},\s+)?(\d{4})\/(\d{1,2})\/(\d{1,2})\s+(\d{1,2}:\d{2}:\d{2})\s+(\S+)$/i.exec(value);
  if (p4) {
    const time = parseTime(p4[4]);
    const offset = parseOffset(p4[5]);
    if (!time || offset === null) return null;
    return build({ year: Number(p4[1]), month: Number(p4[2]), day: Number(p4[3]), ...time, offset });
  }
  return null;
}

/** Parses a feed date in any common format to an ISO 8601 UTC string, or null when it is not a date. */
export function parseFeedDate(value: string | null | undefined): string | null {
  if (value == null) return null;
  const text = value.trim().replace(/\s+/g, " ");
  if (text === "") return null;
  if (/^[-\d]/.test(text)) {
    const iso = parseIso(text);
    if (iso) return iso;
  }
  return parseRfc822(text) ?? parseAsctime(text) ?? parseLocalised(text) ?? parseIso(text);
}

/** Before the web carried news: a date this old on a page is a parse of something else (a birth date, a year in a URL). */
const EARLIEST_PLAUSIBLE = Date.UTC(1990, 0, 1);
/** A day ahead still counts: a date-only value, or a clock a little fast, can lead ours by up to a day. */
const FUTURE_SKEW_MS = 24 * 60 * 60 * 1000;

/**
 * A date a source reported for its article, if it could be true at `now`: not before 1990 and not
 * more than a day in the future. Anything else (or not a date) is null.
 */
export function plausiblePublishedAt(value: string | Date | null | undefined, now: Date): Date | null {
  if (value == null) return null;
  const time = value instanceof Date ? value.getTime() : Date.parse(value);
  if (!Number.isFinite(time)) return null;
  if (time < EARLIEST_PLAUSIBLE || time > now.getTime() + FUTURE_SKEW_MS) return null;
  return new Date(time);
}
