/**
 * Where two versions of a text differ: `[start, oldEnd)` of the old text became
 * `[start, newEnd)` of the new one, and everything before and after is the same.
 */
export interface ChangedSpan {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/** Compared a block at a time: string equality of slices runs in native code, a loop over characters does not. */
const block = 512;

/**
 * The smallest single span that turns `before` into `after`: their common prefix and common suffix
 * left out. Works from the texts alone, so the editor's list of changes (several may have been
 * merged by the typing delay) does not have to be trusted or replayed.
 */
export function changedSpan(before: string, after: string): ChangedSpan {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start + block <= shorter && before.slice(start, start + block) === after.slice(start, start + block))
    start += block;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start += 1;

  // The suffix may not reach back into the prefix: with repeated characters both could claim them.
  const room = shorter - start;
  let suffix = 0;
  while (
    suffix + block <= room &&
    before.slice(before.length - suffix - block, before.length - suffix) ===
      after.slice(after.length - suffix - block, after.length - suffix)
  ) {
    suffix += block;
  }
  while (suffix < room && before.charCodeAt(before.length - suffix - 1) === after.charCodeAt(after.length - suffix - 1))
    suffix += 1;

  return { start, oldEnd: before.length - suffix, newEnd: after.length - suffix };
}
