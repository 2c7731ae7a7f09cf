/**
 * Whether a service fails for good or failed for a moment, told the same way by the rules
 * (support/judged.ts) and the explorer (explore/confirm.ts): by a few reads of the list spread over a
 * few seconds, named then by model/named-defects.ts serverErrorUnderConcurrency.
 */

/**
 * The pauses before the reads of the list that tell a service failing for good from one that failed for a
 * moment (a lock taken, a file being rewritten) or lost one answer on the way: growing, so that the last
 * read comes seconds after the failure.
 */
const PAUSES_MS = [0, 300, 700, 1500];
const SPAN_MS = PAUSES_MS.reduce((a, b) => a + b, 0);

/**
 * What the reads of the list answered when every one of them failed (no answer or a 5xx), undefined when
 * one is served (then the service failed for a moment only). One read is not enough: on a loaded machine
 * a single answer can be lost (a kept-alive connection closed as it is reused), and that is no corruption.
 * Costs one read when the first is served. `readList` answers what a read that failed showed, or
 * undefined when the list was served.
 */
export async function failsForGood(readList: () => Promise<string | undefined>): Promise<string | undefined> {
  let seen = '';
  for (const pause of PAUSES_MS) {
    if (pause > 0) await new Promise((r) => setTimeout(r, pause));
    const failed = await readList();
    if (failed === undefined) return undefined;
    seen = failed;
  }
  return `${seen} (${PAUSES_MS.length} reads of the list over ${SPAN_MS / 1000} s, all failing)`;
}
