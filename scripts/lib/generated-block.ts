/** A generated block of a hand-written page: the text between a begin and an end marker (both kept). */
export function withBlock(
  page: string,
  markers: { begin: string; end: string },
  block: string,
  name: string,
): string {
  const begin = page.indexOf(markers.begin);
  const end = page.indexOf(markers.end);
  if (begin === -1 || end < begin)
    throw new Error(`${name} lacks the markers ${markers.begin} … ${markers.end}`);
  return `${page.slice(0, begin + markers.begin.length)}\n${block}\n${page.slice(end)}`;
}
