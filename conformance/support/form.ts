/** `a b+c` → `a+b%2Bc`: application/x-www-form-urlencoded as browsers write it (no dependency: the explorer runs it under plain Node). */
export function formEncode(fields: Record<string, string | number>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v)).replace(/%20/g, '+')}`)
    .join('&');
}
