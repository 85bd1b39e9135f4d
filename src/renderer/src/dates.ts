/// The app's one way of writing a moment: in the writer's locale and time zone, day and minute ("28 Nov 2026,
/// 02:11" or "Nov 28, 2026, 2:11 AM"). Seconds say nothing a writer needs.
const MOMENT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
/// The day alone, written the same way.
const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/// A moment (ISO 8601) as the app writes it.
export const writtenMoment = (iso: string): string => MOMENT.format(new Date(iso))

/// A moment's day (ISO 8601) as the app writes it.
export const writtenDay = (iso: string): string => DAY.format(new Date(iso))
