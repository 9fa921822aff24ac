/**
 * Wall time in a time zone ↔ instants, with Intl only: the Workers runtime has no Temporal and
 * not every browser does, and Temporal's default quietly moves a time in a DST gap. A wall time
 * has no instant (spring gap), one, or two (autumn overlap); the picker says which.
 */

/** The viewer's IANA zone. */
export const viewerZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

const parts = (zone: string, ms: number): Record<string, string> =>
  Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(ms)
      .map((x) => [x.type, x.value]),
  );

/** The zone's offset from UTC at instant `ms`, in minutes. */
export function offsetMinutes(zone: string, ms: number): number {
  const p = parts(zone, ms);
  return (Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!) - Math.floor(ms / 1000) * 1000) / 60_000;
}

/** Every instant whose wall time in `zone` is `local` (`YYYY-MM-DDTHH:mm`), earliest first. */
export function instantsOf(zone: string, local: string): number[] {
  const guess = Date.parse(`${local}:00Z`);
  if (!Number.isFinite(guess)) return [];
  const candidates = new Set([
    guess - offsetMinutes(zone, guess - 86_400_000) * 60_000,
    guess - offsetMinutes(zone, guess + 86_400_000) * 60_000,
  ]);
  return [...candidates]
    .filter((ms) => new Date(ms + offsetMinutes(zone, ms) * 60_000).toISOString().slice(0, 16) === local)
    .sort((a, b) => a - b);
}

/** `YYYY-MM-DDTHH:mm` of instant `ms` in `zone` (what the date and time inputs show). */
export function localOf(zone: string, ms: number): string {
  return new Date(ms + offsetMinutes(zone, ms) * 60_000).toISOString().slice(0, 16);
}

/** "UTC+1", "UTC−4:30", "UTC" for the offset at `ms`. */
export function offsetLabel(zone: string, ms: number): string {
  const m = offsetMinutes(zone, ms);
  if (m === 0) return "UTC";
  const a = Math.abs(m);
  return `UTC${m < 0 ? "−" : "+"}${Math.floor(a / 60)}${a % 60 ? `:${String(a % 60).padStart(2, "0")}` : ""}`;
}

/** "Mon 30 Nov 2026, 09:00 (Europe/Paris, UTC+1)": a time always names its zone. */
export function showInZone(iso: string, zone = viewerZone()): string {
  const ms = Date.parse(iso);
  const text = inWords(ms, zone);
  const offset = offsetLabel(zone, ms);
  return `${text} (${zone === offset || zone === "Etc/UTC" ? "UTC" : `${zone}, ${offset}`})`;
}

/** "Sun, 29 Nov 2026, 02:48": instant `ms` in `zone`, as every screen of the dashboard writes a time. */
export function inWords(ms: number, zone = viewerZone()): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(ms);
}
