/**
 * RFC 3339 UTC with the `+00:00` offset (D23), never `Z`. Fractional seconds appear only
 * when non-zero, as 3 digits: `2026-07-12T10:30:00+00:00`, `2026-07-12T10:30:00.250+00:00`.
 * (`Date#toISOString()` gives `.000Z`, which is wrong here.)
 */
export function formatTimestamp(time: Date | number): string {
  const d = typeof time === 'number' ? new Date(time) : time;
  if (Number.isNaN(d.getTime())) throw new RangeError('invalid time');
  const iso = d.toISOString();
  const [main, frac = '000Z'] = iso.split('.') as [string, string?];
  const ms = frac.slice(0, 3);
  return `${main}${ms === '000' ? '' : `.${ms}`}+00:00`;
}
