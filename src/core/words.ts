// Counts in words: a number and its noun agreeing ("1 request", "2 requests"), for every line a
// user reads (console, reports, messages), so none says "1 requests" or "request(s)".

/** `n` and the noun, singular for 1; `many` when the plural is not the noun and an s, `shown` when the number is written otherwise (`1,024`). */
export function plural(n: number, noun: string, many = `${noun}s`, shown = String(n)): string {
  return `${shown} ${n === 1 ? noun : many}`;
}
